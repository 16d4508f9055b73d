import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, signInWithScope } from '../../tests/integration/accounts';
import { memberUnderPolicy } from '../../tests/integration/policyMember';
import { SocketTestClient, statusOf } from './socketTestClient.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * Attacks on websocket subscriptions by subscribers who may read less than the criteria ask about
 * (security review of server/realtime): each test replays one, over HTTP and a real websocket.
 */
describe('websocket subscriptions under attack', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let ownerToken: string;
  const sockets: SocketTestClient[] = [];

  const post = (path: string, body: unknown, token = ownerToken) =>
    http<any>('POST', `fhir/R4/${path}`, { token, body });

  async function subscription(criteria: string, token = ownerToken): Promise<string> {
    const answer = await post(
      'Subscription',
      { resourceType: 'Subscription', status: 'active', reason: 'attack', criteria, channel: { type: 'websocket' } },
      token,
    );
    expect(answer.status).toBe(201);
    return answer.body.id;
  }

  async function bindingToken(subscriptionId: string, token = ownerToken): Promise<string> {
    const answer = await http<any>('GET', `fhir/R4/Subscription/${subscriptionId}/$get-ws-binding-token`, { token });
    expect(answer.status).toBe(200);
    return answer.body.parameter.find((p: any) => p.name === 'token').valueString;
  }

  async function socket(): Promise<SocketTestClient> {
    const client = await SocketTestClient.open(baseUrl().replace(/^http/, 'ws') + 'ws/subscriptions-r4');
    sockets.push(client);
    return client;
  }

  const notifications = (client: SocketTestClient) =>
    client.messages.filter((m) => statusOf(m)?.type === 'event-notification');

  /** A member of the owner's project under a new AccessPolicy; answers its email, policy and token. */
  const member = (policy: Record<string, unknown>) => memberUnderPolicy(owner.projectId, ownerToken, policy);

  const patientBorn = async (birthDate: string) =>
    (await post('Patient', { resourceType: 'Patient', name: [{ family: 'Oracle' }], birthDate })).body.id as string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Realtime Attack Clinic');
    ownerToken = owner.tokens.access_token;
  });

  afterAll(async () => {
    await Promise.all(sockets.map((client) => client.close()));
  });

  it('answers a websocket upgrade whose target is not a URL with 400, and keeps serving (no crash)', async () => {
    const server = new URL(baseUrl());
    // Anyone can send it, before any sign-in: an absolute-form target with a host that is not one.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(server.port), server.hostname, () =>
        socket.write(
          'GET http://[ HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        ),
      );
      let text = '';
      socket.on('data', (data) => (text += data.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect((await http('GET', 'fhir/R4/metadata', { token: null })).status).toBe(200);
    const client = await socket();
    client.send({ type: 'ping' });
    expect(await client.next()).toEqual({ type: 'pong' });
  });

  it("does not take a binding token as an access token; another project's same criteria hear nothing", async () => {
    const id = await subscription('Patient?name=Oracle');
    const binding = await bindingToken(id);
    expect((await http('GET', 'fhir/R4/Patient', { token: binding })).status).toBe(401);
    const other = await registerProjectOwner('Realtime Attack Neighbour');
    const foreign = await subscription('Patient?name=Oracle', other.tokens.access_token);
    // The neighbour binds the same criteria in its own project (a token for this project's is a 404).
    const client = await socket();
    client.send({
      type: 'bind-with-token',
      payload: { token: await bindingToken(foreign, other.tokens.access_token) },
    });
    await client.bind(await bindingToken(id), id);
    const created = await patientBorn('1930-01-01');
    // The neighbour's binding sees nothing of this project; the owner's sees the write.
    expect((await client.notification(id)).entry[1].resource.id).toBe(created);
    expect(notifications(client)).toEqual([]);
  });

  it('refuses to bind criteria that filter on a field the policy hides (no oracle for its value)', async () => {
    const birthDate = '1931-02-03';
    const attacker = await member({
      resource: [
        { resourceType: 'Patient', hiddenFields: ['birthDate'] },
        { resourceType: 'Communication' },
        { resourceType: 'Subscription' },
      ],
    });
    // The REST API refuses the same question.
    const searched = await http<any>('GET', `fhir/R4/Patient?birthdate=${birthDate}`, { token: attacker.token });
    expect(searched.status).toBe(403);

    const direct = await subscription(`Patient?birthdate=${birthDate}`, attacker.token);
    const chained = await subscription(`Communication?subject:Patient.birthdate=${birthDate}`, attacker.token);
    const witness = await subscription('Patient?name=Oracle', attacker.token);
    const client = await socket();
    for (const id of [direct, chained]) {
      client.send({ type: 'bind-with-token', payload: { token: await bindingToken(id, attacker.token) } });
      const refused = await client.next((m) => m.type === 'error' || statusOf(m)?.type === 'handshake');
      expect(refused.type).toBe('error');
      expect(issueText(refused.payload)).toMatch(/which your access policy hides/);
    }
    await client.bind(await bindingToken(witness, attacker.token), witness);

    const target = await patientBorn(birthDate);
    await post('Communication', {
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: `Patient/${target}` },
    });
    const seen = await client.notification(witness);
    expect(seen.entry[1].resource.id).toBe(target);
    expect(seen.entry[1].resource.birthDate).toBeUndefined();
    expect(notifications(client)).toEqual([]);
  });

  it('refuses to bind composite criteria that compare a hidden value (code-value-quantity)', async () => {
    const attacker = await member({
      resource: [{ resourceType: 'Observation', hiddenFields: ['valueQuantity'] }, { resourceType: 'Subscription' }],
    });
    // The composite's own expression names the whole Observation; its value component reads valueQuantity.
    const oracle = await subscription('Observation?code-value-quantity=urn:test|bp$gt140', attacker.token);
    const client = await socket();
    client.send({ type: 'bind-with-token', payload: { token: await bindingToken(oracle, attacker.token) } });
    const refused = await client.next((m) => m.type === 'error' || statusOf(m)?.type === 'handshake');
    expect(refused.type).toBe('error');
    expect(issueText(refused.payload)).toMatch(/code-value-quantity.*which your access policy hides/);
  });

  it('stops judging bound criteria on a field once the policy hides it', async () => {
    const birthDate = '1932-04-05';
    const attacker = await member({ resource: [{ resourceType: 'Patient' }, { resourceType: 'Subscription' }] });
    const oracle = await subscription(`Patient?birthdate=${birthDate}`, attacker.token);
    const witness = await subscription('Patient?name=Oracle', attacker.token);
    const client = await socket();
    await client.bind(await bindingToken(oracle, attacker.token), oracle);
    await client.bind(await bindingToken(witness, attacker.token), witness);

    // The admin hides birthDate after the binding was made.
    const changed = await http<any>('PUT', `fhir/R4/AccessPolicy/${attacker.policy.id}`, {
      token: ownerToken,
      body: {
        ...attacker.policy,
        resource: [{ resourceType: 'Patient', hiddenFields: ['birthDate'] }, { resourceType: 'Subscription' }],
      },
    });
    expect(changed.status).toBe(200);

    const target = await patientBorn(birthDate);
    const seen = await client.notification(witness);
    expect(seen.entry[1].resource.id).toBe(target);
    expect(seen.entry[1].resource.birthDate).toBeUndefined();
    expect(notifications(client)).toEqual([]);
  });

  it('refuses criteria to a token whose SMART scopes do not grant search of the type', async () => {
    const attacker = await member({ resource: [{ resourceType: 'Patient' }, { resourceType: 'Subscription' }] });
    // Read by id, but no search: the app may open a patient it was given, not discover new ones.
    const app = await signInWithScope(
      attacker.email,
      attacker.password,
      'openid user/Patient.r user/Subscription.cruds',
    );
    expect((await http('GET', 'fhir/R4/Patient?name=Oracle', { token: app.access_token })).status).toBe(403);

    const discover = await subscription('Patient?name=Oracle', app.access_token);
    const client = await socket();
    client.send({ type: 'bind-with-token', payload: { token: await bindingToken(discover, app.access_token) } });
    const refused = await client.next((m) => m.type === 'error' || statusOf(m)?.type === 'handshake');
    expect(refused.type).toBe('error');
    expect(issueText(refused.payload)).toMatch(/scopes do not allow search of Patient/);

    // Nothing is delivered for it either (the owner's own subscription proves the write was judged).
    const witness = await subscription('Patient?name=Oracle');
    const ownerSocket = await socket();
    await ownerSocket.bind(await bindingToken(witness), witness);
    const created = await patientBorn('1933-06-07');
    expect((await ownerSocket.notification(witness)).entry[1].resource.id).toBe(created);
    expect(notifications(client)).toEqual([]);
  });

  it("counts events per binding: another subscriber's notifications do not show in the count", async () => {
    const patientId = (await post('Patient', { resourceType: 'Patient', name: [{ family: 'Counted' }] })).body.id;
    const attacker = await member({
      resource: [
        { resourceType: 'Communication', criteria: 'Communication?status=completed' },
        { resourceType: 'Subscription' },
      ],
    });
    // The owner's Subscription: the member may read it (its policy grants Subscription) and bind it.
    const shared = await subscription(`Communication?subject=Patient/${patientId}`);
    const ownerSocket = await socket();
    await ownerSocket.bind(await bindingToken(shared), shared);
    const attackerSocket = await socket();
    await attackerSocket.bind(await bindingToken(shared, attacker.token), shared);

    const message = (status: string) => ({
      resourceType: 'Communication',
      status,
      subject: { reference: `Patient/${patientId}` },
    });
    // Three drafts the member may not read, then one it may.
    for (let i = 0; i < 3; i++) await post('Communication', message('preparation'));
    await post('Communication', message('completed'));
    for (let i = 1; i <= 4; i++) {
      expect(statusOf(await ownerSocket.notification(shared)).eventsSinceSubscriptionStart).toBe(String(i));
    }
    const seen = await attackerSocket.notification(shared);
    expect(statusOf(seen).eventsSinceSubscriptionStart).toBe('1');
    expect(statusOf(seen).notificationEvent[0].eventNumber).toBe('1');
  });
});
