import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { memberUnderPolicy } from '../../tests/integration/policyMember';
import { SocketTestClient, statusOf } from './socketTestClient.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** Realtime subscriptions over real HTTP and real websockets, against the test server. */
describe('websocket subscriptions', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let ownerToken: string;
  const sockets: SocketTestClient[] = [];
  let heartbeatSocket: SocketTestClient;
  let heartbeatSubscription: string;

  const post = (path: string, body: unknown, token = ownerToken) =>
    http<any>('POST', `fhir/R4/${path}`, { token, body });

  async function subscription(criteria: string, token = ownerToken): Promise<string> {
    const answer = await post(
      'Subscription',
      {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'test',
        criteria,
        channel: { type: 'websocket' },
      },
      token,
    );
    expect(answer.status).toBe(201);
    return answer.body.id;
  }

  async function bindingToken(subscriptionId: string, token = ownerToken) {
    const answer = await http<any>('GET', `fhir/R4/Subscription/${subscriptionId}/$get-ws-binding-token`, { token });
    expect(answer.status).toBe(200);
    const value = (name: string) => answer.body.parameter.find((p: any) => p.name === name);
    return { token: value('token').valueString as string, url: value('websocket-url').valueUrl as string };
  }

  async function socket(): Promise<SocketTestClient> {
    const client = await SocketTestClient.open(websocketUrl());
    sockets.push(client);
    return client;
  }

  function websocketUrl(): string {
    return baseUrl().replace(/^http/, 'ws') + 'ws/subscriptions-r4';
  }

  async function patient(token = ownerToken): Promise<string> {
    return (await post('Patient', { resourceType: 'Patient', name: [{ family: 'Realtime' }] }, token)).body.id;
  }

  const communication = (patientId: string, status = 'in-progress') => ({
    resourceType: 'Communication',
    status,
    subject: { reference: `Patient/${patientId}` },
    payload: [{ contentString: 'hello' }],
  });

  /** A member of the owner's project under `policy`, signed in: its token. */
  const member = async (policy: Record<string, unknown>): Promise<string> =>
    (await memberUnderPolicy(owner.projectId, ownerToken, policy)).token;

  beforeAll(async () => {
    owner = await registerProjectOwner('Realtime Clinic');
    ownerToken = owner.tokens.access_token;
    // Bound first, so that the default 10 s heartbeat arrives while the other tests run.
    heartbeatSubscription = await subscription('Task?status=requested');
    heartbeatSocket = await socket();
    await heartbeatSocket.bind((await bindingToken(heartbeatSubscription)).token, heartbeatSubscription);
  });

  afterAll(async () => {
    await Promise.all(sockets.map((client) => client.close()));
  });

  it('answers a binding token with the websocket URL, only to callers who can read the Subscription', async () => {
    const id = await subscription('Communication?status=completed');
    const answer = await http<any>('GET', `fhir/R4/Subscription/${id}/$get-ws-binding-token`, { token: ownerToken });
    expect(answer.status).toBe(200);
    expect(answer.body.resourceType).toBe('Parameters');
    const names = answer.body.parameter.map((p: any) => p.name);
    expect(names).toEqual(['token', 'expiration', 'subscription', 'websocket-url']);
    expect(answer.body.parameter[3].valueUrl).toBe(websocketUrl());
    expect(answer.body.parameter[2].valueString).toBe(id);
    expect(Date.parse(answer.body.parameter[1].valueDateTime)).toBeGreaterThan(Date.now());

    const other = await registerProjectOwner('Other Realtime Clinic');
    const foreign = await http<any>('GET', `fhir/R4/Subscription/${id}/$get-ws-binding-token`, {
      token: other.tokens.access_token,
    });
    expect(foreign.status).toBe(404);
    const missing = await http<any>('GET', 'fhir/R4/Subscription/no-such-id/$get-ws-binding-token', {
      token: ownerToken,
    });
    expect(missing.status).toBe(404);
    const anonymous = await http<any>('GET', `fhir/R4/Subscription/${id}/$get-ws-binding-token`, { token: null });
    expect(anonymous.status).toBe(401);
  });

  it('notifies a bound subscription of matching creates, updates and deletes, and of nothing else', async () => {
    const patientId = await patient();
    const id = await subscription(`Communication?subject=Patient/${patientId}`);
    const client = await socket();
    const handshake = await client.bind((await bindingToken(id)).token, id);
    expect(statusOf(handshake).eventsSinceSubscriptionStart).toBe('0');

    const started = Date.now();
    const created = await post('Communication', communication(patientId));
    const first = await client.notification(id, 1000);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(first.type).toBe('history');
    const status = statusOf(first);
    expect(status).toMatchObject({
      resourceType: 'SubscriptionStatus',
      type: 'event-notification',
      eventsSinceSubscriptionStart: '1',
      subscription: { reference: `Subscription/${id}` },
    });
    expect(status.notificationEvent[0].focus.reference).toBe(`Communication/${created.body.id}`);
    expect(first.entry[1].resource).toMatchObject({ resourceType: 'Communication', id: created.body.id });

    // Another patient's message does not match; the next notification is the update of the first one.
    await post('Communication', communication(await patient()));
    const updated = await http<any>('PUT', `fhir/R4/Communication/${created.body.id}`, {
      token: ownerToken,
      body: { ...created.body, status: 'completed' },
    });
    expect(updated.status).toBe(200);
    const second = await client.notification(id);
    expect(statusOf(second).eventsSinceSubscriptionStart).toBe('2');
    expect(second.entry[1].resource).toMatchObject({ id: created.body.id, status: 'completed' });
    expect(second.entry[1].request.method).toBe('PUT');

    expect((await http('DELETE', `fhir/R4/Communication/${created.body.id}`, { token: ownerToken })).status).toBe(200);
    const third = await client.notification(id);
    expect(third.entry[1].request.method).toBe('DELETE');
    expect(third.entry[1].resource).toMatchObject({ id: created.body.id, status: 'completed' });
    expect(client.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);
  });

  it('answers ping with pong, and bad messages and tokens with errors, keeping the socket open', async () => {
    const client = await socket();
    client.send({ type: 'ping' });
    expect(await client.next()).toEqual({ type: 'pong' });

    client.send({ type: 'bind-with-token', payload: { token: 'not-a-token' } });
    const bad = await client.next((m) => m.type === 'error');
    expect(bad.payload.issue[0].details.text).toBe('Invalid token');

    // An access token is not a binding token.
    client.send({ type: 'bind-with-token', payload: { token: ownerToken } });
    const access = await client.next((m) => m.type === 'error');
    expect(access.payload.issue[0].details.text).toMatch(/not a subscription binding token/);

    client.send({ type: 'subscribe-everything' });
    expect((await client.next((m) => m.type === 'error')).payload.issue[0].details.text).toBe(
      'Unknown message type: subscribe-everything',
    );
    client.socket.send('{not json');
    expect((await client.next((m) => m.type === 'error')).payload.issue[0].details.text).toBe('Messages must be JSON');

    // A Subscription that is not active cannot be bound.
    const off = await post('Subscription', {
      resourceType: 'Subscription',
      status: 'off',
      reason: 'test',
      criteria: 'Communication',
      channel: { type: 'websocket' },
    });
    client.send({ type: 'bind-with-token', payload: { token: (await bindingToken(off.body.id)).token } });
    expect((await client.next((m) => m.type === 'error')).payload.issue[0].details.text).toMatch(
      /is not an active websocket subscription/,
    );

    client.send({ type: 'ping' });
    expect(await client.next()).toEqual({ type: 'pong' });
  });

  it('stops notifying after unbind-from-token, and notifies again after a reconnect and a new binding', async () => {
    const patientId = await patient();
    const unbound = await subscription(`Communication?subject=Patient/${patientId}&status=in-progress`);
    const kept = await subscription(`Communication?subject=Patient/${patientId}&status=completed`);
    const client = await socket();
    const unboundToken = (await bindingToken(unbound)).token;
    await client.bind(unboundToken, unbound);
    await client.bind((await bindingToken(kept)).token, kept);

    client.send({ type: 'unbind-from-token', payload: { token: unboundToken } });
    // The unbind has no answer of its own, but a socket's commands are handled in order: once the
    // pong is back, the unbind has taken effect (a write could otherwise commit before it did).
    client.send({ type: 'ping' });
    await client.next((m) => m.type === 'pong');
    // Notifications are judged in commit order: once the second arrives, the first would have too.
    await post('Communication', communication(patientId, 'in-progress'));
    await post('Communication', communication(patientId, 'completed'));
    await client.notification(kept);
    expect(client.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);

    client.send({ type: 'unbind-from-token', payload: { token: unboundToken } });
    expect((await client.next((m) => m.type === 'error')).payload.issue[0].details.text).toMatch(/is not bound/);

    await client.close();
    const again = await socket();
    await again.bind((await bindingToken(unbound)).token, unbound);
    const created = await post('Communication', communication(patientId, 'in-progress'));
    const notification = await again.notification(unbound);
    expect(notification.entry[1].resource.id).toBe(created.body.id);
  });

  it("applies the subscriber's access policy: no notification about what it may not read", async () => {
    const patientId = await patient();
    const restricted = await member({
      resource: [
        { resourceType: 'Communication', criteria: 'Communication?status=completed', hiddenFields: ['payload'] },
        { resourceType: 'Subscription' },
      ],
    });
    const id = await subscription(`Communication?subject=Patient/${patientId}`, restricted);
    const client = await socket();
    await client.bind((await bindingToken(id, restricted)).token, id);

    // The owner writes a draft the member may not read, then a completed one it may.
    await post('Communication', communication(patientId, 'preparation'));
    const visible = await post('Communication', communication(patientId, 'completed'));
    const notification = await client.notification(id);
    expect(notification.entry[1].resource.id).toBe(visible.body.id);
    // Hidden fields stay hidden in notifications too.
    expect(notification.entry[1].resource.payload).toBeUndefined();
    expect(notification.entry[1].resource.status).toBe('completed');
    expect(client.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);
  });

  it('sends nothing more once the subscriber signs out (its login is revoked)', async () => {
    const patientId = await patient();
    const memberToken = await member({
      resource: [{ resourceType: 'Communication' }, { resourceType: 'Subscription' }],
    });
    const revoked = await subscription(`Communication?subject=Patient/${patientId}`, memberToken);
    const witness = await subscription(`Communication?subject=Patient/${patientId}`);
    const client = await socket();
    await client.bind((await bindingToken(revoked, memberToken)).token, revoked);
    await client.bind((await bindingToken(witness)).token, witness);

    const logout = await http('POST', 'oauth2/logout', { token: memberToken });
    expect(logout.status).toBeLessThan(300);
    expect((await http('GET', 'fhir/R4/Patient', { token: memberToken })).status).toBe(401);

    await post('Communication', communication(patientId));
    await client.notification(witness);
    expect(client.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);
  });

  it('refuses to bind a revoked sign-in, naming why', async () => {
    const memberToken = await member({ resource: [{ resourceType: 'Subscription' }, { resourceType: 'Task' }] });
    const id = await subscription('Task?status=ready', memberToken);
    const { token } = await bindingToken(id, memberToken);
    await http('POST', 'oauth2/logout', { token: memberToken });
    const client = await socket();
    client.send({ type: 'bind-with-token', payload: { token } });
    const error = await client.next((m) => m.type === 'error');
    expect(error.payload.issue[0].details.text).toMatch(/Unauthorized/);
    expect(issueText(error.payload)).toMatch(/sign-in of this token has ended/);
  });

  it('follows Subscription changes: new criteria, switched off, deleted', async () => {
    const patientId = await patient();
    const id = await subscription(`Communication?subject=Patient/${patientId}&status=completed`);
    const witness = await subscription(`Communication?subject=Patient/${patientId}`);
    const client = await socket();
    await client.bind((await bindingToken(id)).token, id);
    await client.bind((await bindingToken(witness)).token, witness);
    const current = (await http<any>('GET', `fhir/R4/Subscription/${id}`, { token: ownerToken })).body;
    const put = (body: unknown) => http<any>('PUT', `fhir/R4/Subscription/${id}`, { token: ownerToken, body });
    const nextFor = async (status: string) => {
      const created = await post('Communication', communication(patientId, status));
      const seen = await client.notification(witness);
      expect(seen.entry[1].resource.id).toBe(created.body.id);
      return created.body.id as string;
    };

    // New criteria take effect at once.
    expect(
      (await put({ ...current, criteria: `Communication?subject=Patient/${patientId}&status=preparation` })).status,
    ).toBe(200);
    const draft = await nextFor('preparation');
    expect((await client.notification(id)).entry[1].resource.id).toBe(draft);
    await nextFor('completed');
    expect(client.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);

    // Switched off: nothing more.
    const latest = (await http<any>('GET', `fhir/R4/Subscription/${id}`, { token: ownerToken })).body;
    expect((await put({ ...latest, status: 'off' })).status).toBe(200);
    await nextFor('preparation');
    expect(client.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);

    // Deleted: its binding is dropped, nothing more.
    expect((await http('DELETE', `fhir/R4/Subscription/${id}`, { token: ownerToken })).status).toBe(200);
    await nextFor('preparation');
    expect(client.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);
  });

  it("follows a change to its project's SearchParameter (its type) without a new binding", async () => {
    const code = `rt-colour-${Date.now()}`;
    const url = `http://example.org/SearchParameter/${code}`;
    const colour = 'http://example.org/StructureDefinition/colour';
    const parameter = await post('SearchParameter', {
      resourceType: 'SearchParameter',
      url,
      name: code,
      status: 'active',
      description: 'Favourite colour',
      code,
      base: ['Patient'],
      type: 'string',
      expression: `Patient.extension.where(url = '${colour}').value`,
    });
    expect(parameter.status).toBe(201);
    const id = await subscription(`Patient?${code}=blue`);
    const client = await socket();
    await client.bind((await bindingToken(id)).token, id);
    const coloured = async (value: string) =>
      (
        await post('Patient', {
          resourceType: 'Patient',
          name: [{ family: 'Colour' }],
          extension: [{ url: colour, valueCode: value }],
        })
      ).body.id as string;

    const first = await coloured('blue');
    expect((await client.notification(id)).entry[1].resource.id).toBe(first);

    // As a token the parameter matches whole codes only: 'blue' no longer finds 'bluegreen'.
    const changed = await http<any>('PUT', `fhir/R4/SearchParameter/${parameter.body.id}`, {
      token: ownerToken,
      body: { ...parameter.body, type: 'token' },
    });
    expect(changed.status).toBe(200);
    const blueGreen = await coloured('bluegreen');
    const blue = await coloured('blue');
    expect((await client.notification(id)).entry[1].resource.id).toBe(blue);
    // The changed parameter indexes the patients written before it in the background (server/search,
    // searchParameterIndexing.ts): once that is done the search finds the first blue patient too.
    await expect
      .poll(
        async () => {
          const status = await http<any>('GET', `fhir/R4/SearchParameter/${parameter.body.id}/$index-status`, {
            token: ownerToken,
          });
          return (status.body.parameter as any[] | undefined)?.find((p) => p.name === 'status')?.valueCode;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe('completed');
    const searched = await http<any>('GET', `fhir/R4/Patient?${code}=blue`, { token: ownerToken });
    const found = searched.body.entry.map((e: any) => e.resource.id);
    expect([...found].sort()).toEqual([first, blue].sort());
    expect(found).not.toContain(blueGreen);
  });

  it('sends heartbeats for bound subscriptions', async () => {
    const heartbeat = await heartbeatSocket.next(
      (m) =>
        statusOf(m)?.type === 'heartbeat' &&
        statusOf(m).subscription.reference === `Subscription/${heartbeatSubscription}`,
      15_000,
    );
    expect(statusOf(heartbeat).status).toBe('active');
  });
});
