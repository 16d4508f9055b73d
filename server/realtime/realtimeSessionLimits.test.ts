import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerProjectOwner, signInWithScope } from '../../tests/integration/accounts';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { defaultRealtimeLimits } from './realtimeLimits';
import { shortSessionSignIn } from './sessionClock.test-support';
import { SocketTestClient, statusOf } from './socketTestClient.test-support';
import { policyViolationCode, signInEndedCode } from './socketCloseCodes';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * The lifetime and the limits of websocket subscriptions, each attack replayed over HTTP and real
 * sockets: bindings outliving their sign-in's session, commands queued without end, oversized
 * messages, bindings left behind by sockets that closed first, Subscriptions without a bound.
 */
describe('websocket subscriptions: session end and limits', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  const sockets: SocketTestClient[] = [];
  const websocketUrl = () => baseUrl().replace(/^http/, 'ws') + 'ws/subscriptions-r4';

  async function subscription(criteria: string, token: string): Promise<string> {
    const answer = await http<any>('POST', 'fhir/R4/Subscription', {
      token,
      body: {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'limits',
        criteria,
        channel: { type: 'websocket' },
      },
    });
    expect(answer.status).toBe(201);
    return answer.body.id;
  }

  async function bindingToken(subscriptionId: string, token: string): Promise<string> {
    const answer = await http<any>('GET', `fhir/R4/Subscription/${subscriptionId}/$get-ws-binding-token`, { token });
    expect(answer.status).toBe(200);
    return answer.body.parameter.find((p: any) => p.name === 'token').valueString;
  }

  async function socket(): Promise<SocketTestClient> {
    const client = await SocketTestClient.open(websocketUrl());
    sockets.push(client);
    return client;
  }

  const closeOf = (client: SocketTestClient) =>
    new Promise<{ code: number; reason: string }>((resolve) => {
      if (client.socket.readyState === WebSocket.CLOSED) resolve({ code: -1, reason: 'closed before' });
      client.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });

  /** A fresh sign-in of the owner (a Login of its own, so that its session can be ended alone). */
  const freshSignIn = async () => (await signInWithScope(owner.email, owner.password, 'openid profile')).access_token;

  beforeAll(async () => {
    owner = await registerProjectOwner('Realtime Limits Clinic');
  });

  afterAll(async () => {
    await Promise.all(sockets.map((client) => client.close()));
  });

  it("closes a socket (4401) when its binding's sign-in session ends, and binds it no more", async () => {
    // A sign-in whose session ends 3 s after its tokens were granted (no refresh comes).
    const token = await shortSessionSignIn(owner, 3);
    const id = await subscription('Patient?name=Sessionend', token);
    const client = await socket();
    await client.bind(await bindingToken(id, token), id);
    const closed = closeOf(client);
    // A binding token fetched before the end: good for an hour, but not past the session.
    const laterToken = await bindingToken(id, token);

    const { code, reason } = await closed;
    expect(code).toBe(signInEndedCode);
    expect(reason).toBe('The sign-in session has ended');
    const said = client.messages.find((m) => m.type === 'error');
    expect(issueText(said.payload)).toBe(`Subscription/${id}: the sign-in session of this binding has ended`);

    // The access token still lasts its hour: it cannot bind past the session, nor hear anything.
    const again = await socket();
    again.send({ type: 'bind-with-token', payload: { token: laterToken } });
    const refused = await again.next((m) => m.type === 'error' || statusOf(m)?.type === 'handshake');
    expect(refused.type).toBe('error');
    expect(issueText(refused.payload)).toBe('Unauthorized: the sign-in of this token has ended');
    await http('POST', 'fhir/R4/Patient', {
      token: owner.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Sessionend' }] },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);
  });

  it('closes a socket (4401) at once when the sign-in of its bindings is revoked', async () => {
    const token = await freshSignIn();
    const id = await subscription('Patient?name=Signedout', token);
    const client = await socket();
    await client.bind(await bindingToken(id, token), id);
    const closed = closeOf(client);
    expect((await http('POST', 'oauth2/logout', { token })).status).toBeLessThan(300);
    expect(await closed).toEqual({ code: signInEndedCode, reason: 'The sign-in session has ended' });
  });

  it('closes a socket (1008) whose client sends commands without waiting, however large its queue would grow', async () => {
    const token = owner.tokens.access_token;
    const id = await subscription('Patient?name=Flood', token);
    const binding = await bindingToken(id, token);
    const client = await socket();
    const closed = closeOf(client);
    // Each command waits for the database; padded, each would be kept whole while it waits.
    const padding = 'x'.repeat(12 * 1024);
    for (let i = 0; i < 1000; i++) client.send({ type: 'bind-with-token', payload: { token: binding }, padding });
    const { code, reason } = await closed;
    expect(code).toBe(policyViolationCode);
    expect(reason).toBe(
      `More than ${defaultRealtimeLimits.maxPendingCommandsPerSocket} commands waiting: wait for answers`,
    );
    // The server goes on serving.
    const fresh = await socket();
    fresh.send({ type: 'ping' });
    expect(await fresh.next()).toEqual({ type: 'pong' });
  });

  it('closes a socket (1009) sending a message larger than a command can be', async () => {
    const client = await socket();
    const closed = closeOf(client);
    client.send({ type: 'ping', padding: 'x'.repeat(64 * 1024) });
    expect((await closed).code).toBe(1009);
  });

  it('leaves no binding behind for a socket that closed before its bind was answered', async () => {
    const token = await freshSignIn();
    const id = await subscription('Patient?name=Leftover', token);
    const binding = await bindingToken(id, token);
    // More sockets than one sign-in may bind on, each gone before its bind is done.
    for (let i = 0; i < defaultRealtimeLimits.maxSocketsPerLogin + 2; i++) {
      const gone = await SocketTestClient.open(websocketUrl());
      // Commands are answered in turn: the last of these is still waiting when the socket is gone.
      const command = JSON.stringify({ type: 'bind-with-token', payload: { token: binding } });
      for (let j = 0; j < 29; j++) gone.socket.send(command);
      // Gone as soon as the last is on its way (not before: the server must receive it).
      await new Promise<void>((resolve) =>
        gone.socket.send(command, () => {
          gone.socket.terminate();
          resolve();
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Had they been kept, this sign-in would have no socket left to bind on.
    const client = await socket();
    const handshake = await client.bind(binding, id);
    expect(statusOf(handshake).type).toBe('handshake');
  });

  it('refuses a transaction that would take a project past its active Subscriptions (422, nothing stored)', async () => {
    const project = await registerProjectOwner('Realtime Quota Clinic');
    const token = project.tokens.access_token;
    const limit = defaultRealtimeLimits.maxActiveSubscriptionsPerProject;
    const entry = (i: number, status = 'active') => ({
      resource: {
        resourceType: 'Subscription',
        status,
        reason: 'quota',
        criteria: `Patient?name=Quota${i}`,
        channel: i % 2 === 0 ? { type: 'websocket' } : { type: 'rest-hook', endpoint: 'https://example.org/hook' },
      },
      request: { method: 'POST', url: 'Subscription' },
    });
    const transaction = (entries: unknown[]) =>
      http<any>('POST', 'fhir/R4', { token, body: { resourceType: 'Bundle', type: 'transaction', entry: entries } });
    const filled = await transaction(Array.from({ length: limit }, (_, i) => entry(i)));
    expect(filled.status).toBe(200);

    const over = await transaction([entry(limit)]);
    expect(over.status).toBe(422);
    expect(issueText(over.body)).toBe(
      `This project has reached its limit of ${limit} active websocket and rest-hook Subscriptions: set one it no longer needs to "off" (or delete it) first`,
    );
    expect(issueExpressions(over.body)).toEqual(['Subscription.status']);
    const single = await http<any>('POST', 'fhir/R4/Subscription', { token, body: entry(limit).resource });
    expect(single.status).toBe(422);
    const active = await http<any>('GET', 'fhir/R4/Subscription?status=active&_summary=count', { token });
    expect(active.body.total).toBe(limit);

    // One that is not active is not counted; switching one off makes room for another.
    expect((await http<any>('POST', 'fhir/R4/Subscription', { token, body: entry(0, 'off').resource })).status).toBe(
      201,
    );
    const one = filled.body.entry[0].resource;
    expect(
      (await http<any>('PUT', `fhir/R4/Subscription/${one.id}`, { token, body: { ...one, status: 'off' } })).status,
    ).toBe(200);
    expect((await http<any>('POST', 'fhir/R4/Subscription', { token, body: entry(limit).resource })).status).toBe(201);
  });
});
