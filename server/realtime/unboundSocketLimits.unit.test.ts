import type { Subscription } from '@medplum/fhirtypes';
import WebSocket from 'ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signBindingToken } from './bindingToken';
import { embeddedRealtimeServer, signedInMember, type SignedInMember } from './embeddedRealtimeServer.test-support';
import { ManualSchedule } from './manualSchedule.test-support';
import { realtimeRoutes, realtimeStatsOf } from './realtimeRoutes';
import { unboundIdleCode } from './socketCloseCodes';
import { SocketTestClient, statusOf } from './socketTestClient.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- socket messages and outcomes of many shapes */

const idleMs = 60_000;
const maxUnbound = 3;

/**
 * Sockets of `/ws/subscriptions-r4` without a binding (security review of 2026-11-28, follow-up):
 * anyone can open one before any sign-in, so each is timed while it has no binding and there is a
 * bound on how many are open. Replayed over real sockets, on a server whose idle clock the test moves.
 */
describe('websocket subscriptions: sockets without a binding', { timeout: 60_000 }, () => {
  const clock = new ManualSchedule();
  const server = embeddedRealtimeServer('unbound-sockets', async (app, auth, db) => {
    await app.register(realtimeRoutes, {
      auth,
      db,
      heartbeatMs: 3_600_000,
      limits: { unboundSocketIdleMs: idleMs, maxUnboundSockets: maxUnbound },
      schedule: clock.schedule,
    });
  });
  let member: SignedInMember;
  const opened: SocketTestClient[] = [];
  const websocketUrl = () => server().baseUrl.replace(/^http/, 'ws') + 'ws/subscriptions-r4';
  const unboundCount = () => realtimeStatsOf(server().app)?.unboundSockets;

  beforeAll(async () => {
    member = await signedInMember(server().auth, 'Unbound Clinic');
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close()));
    // Every socket the server held is gone, so that each test counts from none.
    await waitFor(() => unboundCount() === 0);
  });

  async function socket(): Promise<SocketTestClient> {
    const client = await SocketTestClient.open(websocketUrl());
    opened.push(client);
    // Accepted by the server (its accept ran before the client saw the handshake).
    return client;
  }

  /** A Subscription of the member's project and a binding token of the member for it. */
  async function subscriptionAndToken(criteria: string): Promise<{ id: string; token: string }> {
    const created = await server().auth.repository.create(
      { projectId: member.projectId, author: { reference: member.profile } },
      {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'unbound sockets',
        criteria,
        channel: { type: 'websocket' },
      } as Subscription,
    );
    const id = created.id as string;
    return { id, token: await signBindingToken(server().auth.keys, { loginId: member.loginId, subscriptionId: id }) };
  }

  /** The socket is open and served: a ping is answered (commands are answered in the order they came). */
  async function isServed(client: SocketTestClient): Promise<boolean> {
    if (client.socket.readyState !== WebSocket.OPEN) return false;
    client.send({ type: 'ping' });
    const answer = await Promise.race([client.next((m) => m.type === 'pong'), closeOf(client)]);
    return answer.type === 'pong';
  }

  it('closes a socket that binds nothing within the idle limit (4408), however it pings', async () => {
    const client = await socket();
    const closed = closeOf(client);
    clock.advance(idleMs - 1);
    expect(await isServed(client)).toBe(true);
    clock.advance(1);
    expect(await isServed(client)).toBe(false);
    expect(await closed).toEqual({
      code: unboundIdleCode,
      reason: 'No subscription bound within 60 s: bind one right after connecting',
    });
    await waitFor(() => unboundCount() === 0);
  });

  it('keeps a socket while it has a binding, and times it again from the end of its last one', async () => {
    const { id, token } = await subscriptionAndToken('Patient?name=Bound');
    const client = await socket();
    clock.advance(idleMs / 2);
    expect(statusOf(await client.bind(token, id)).type).toBe('handshake');
    expect(unboundCount()).toBe(0);
    clock.advance(idleMs * 10);
    expect(await isServed(client)).toBe(true);

    // Unbound: the clock starts again from the unbind, not from the opening.
    client.send({ type: 'unbind-from-token', payload: { token } });
    expect(await isServed(client)).toBe(true);
    expect(unboundCount()).toBe(1);
    clock.advance(idleMs - 1);
    expect(await isServed(client)).toBe(true);
    // Bound again before its time: kept for as long as it stays bound.
    expect(statusOf(await client.bind(token, id)).type).toBe('handshake');
    clock.advance(idleMs * 10);
    expect(await isServed(client)).toBe(true);

    client.send({ type: 'unbind-from-token', payload: { token } });
    expect(await isServed(client)).toBe(true);
    const closed = closeOf(client);
    clock.advance(idleMs);
    expect(await isServed(client)).toBe(false);
    expect((await closed).code).toBe(unboundIdleCode);
  });

  it('times a socket again when the Subscription of its last binding is deleted', async () => {
    const { id, token } = await subscriptionAndToken('Patient?name=Deleted');
    const client = await socket();
    expect(statusOf(await client.bind(token, id)).type).toBe('handshake');
    await server().auth.repository.delete(
      { projectId: member.projectId, author: { reference: member.profile } },
      'Subscription',
      id,
    );
    expect(unboundCount()).toBe(1);
    const closed = closeOf(client);
    clock.advance(idleMs);
    expect(await isServed(client)).toBe(false);
    expect((await closed).code).toBe(unboundIdleCode);
  });

  it('refuses a connection past the open sockets without a binding (503, Retry-After), not past bound ones', async () => {
    const clients: SocketTestClient[] = [];
    for (let i = 0; i < maxUnbound; i++) clients.push(await socket());
    expect(unboundCount()).toBe(maxUnbound);

    const refused = await refusedUpgrade(websocketUrl());
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('60');
    expect(refused.body).toEqual({
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'throttled',
          details: {
            text: `This server has ${maxUnbound} subscription sockets open without a binding, the most it keeps: try again later`,
          },
        },
      ],
    });
    // The sockets already open are served as before.
    expect(await isServed(clients[0])).toBe(true);

    // One binds: it leaves the count, and there is room for one more.
    const { id, token } = await subscriptionAndToken('Patient?name=Room');
    expect(statusOf(await clients[0].bind(token, id)).type).toBe('handshake');
    const another = await socket();
    expect(await isServed(another)).toBe(true);
    expect((await refusedUpgrade(websocketUrl())).status).toBe(503);
  });
});

function closeOf(client: SocketTestClient): Promise<{ code: number; reason: string; type?: undefined }> {
  return new Promise((resolve) => {
    if (client.socket.readyState === WebSocket.CLOSED) resolve({ code: -1, reason: 'closed before' });
    client.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
}

/** Opens a socket the server must refuse: its HTTP status, Retry-After and body. */
function refusedUpgrade(url: string): Promise<{ status: number; retryAfter?: string; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('The server accepted the socket'));
    });
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        socket.terminate();
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: response.headers['retry-after'],
          body: JSON.parse(text),
        });
      });
    });
  });
}

/** Waits for a state the server reaches on its own (a socket it closed is counted out at its close event). */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
