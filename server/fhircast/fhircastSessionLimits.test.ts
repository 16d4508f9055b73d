import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerProjectOwner, signInWithScope } from '../../tests/integration/accounts';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { shortSessionSignIn } from '../realtime/sessionClock.test-support';
import { policyViolationCode, signInEndedCode } from '../realtime/socketCloseCodes';
import { defaultFhircastLimits } from './fhircastLimits';
import { fhircastSubscribe } from './fhircastHubClient.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- hub answers of many shapes */

/**
 * The lifetime and the limits of the FHIRcast hub, each attack replayed over HTTP and real sockets:
 * a socket outliving its sign-in's session, subscriptions and topics without a bound, sockets piled
 * on one endpoint, oversized messages.
 */
describe('FHIRcast hub: session end and limits', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let patientId: string;
  const hub = (path = '') => new URL(`fhircast/STU3${path}`, baseUrl()).toString();

  const subscribe = (topic: string, bearer: string) => fhircastSubscribe(baseUrl(), topic, 'Patient-open', bearer);

  async function publish(topic: string, bearer: string) {
    const response = await fetch(hub(`/${encodeURIComponent(topic)}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({
        event: {
          'hub.topic': topic,
          'hub.event': 'Patient-open',
          context: [{ key: 'patient', resource: { resourceType: 'Patient', id: patientId } }],
        },
      }),
    });
    return {
      status: response.status,
      retryAfter: Number(response.headers.get('retry-after')),
      body: (await response.json()) as any,
    };
  }

  /**
   * Publishes as a client that keeps to the hub's publishing rate does: refused for going too fast
   * (429 naming no field), it waits the Retry-After it was told and sends again.
   */
  async function publishWithinRate(topic: string, bearer: string) {
    for (let attempt = 0; ; attempt++) {
      const answer = await publish(topic, bearer);
      const tooFast = answer.status === 429 && issueExpressions(answer.body).length === 0;
      if (!tooFast || attempt >= 20) return answer;
      await new Promise((resolve) => setTimeout(resolve, answer.retryAfter * 1000));
    }
  }

  /** Opens an endpoint; `confirmed` once the hub's confirmation came, `closed` with the close code and reason. */
  function listen(endpoint: string) {
    const socket = new WebSocket(endpoint);
    const events: any[] = [];
    let lease: number | undefined;
    let confirm: (value: boolean) => void = () => undefined;
    const confirmed = new Promise<boolean>((resolve) => (confirm = resolve));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.on('close', (code, reason) => {
        confirm(false);
        resolve({ code, reason: reason.toString() });
      }),
    );
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message['hub.mode']) {
        lease = message['hub.lease_seconds'];
        confirm(true);
      } else events.push(message);
    });
    return { socket, events, confirmed, closed, lease: () => lease };
  }

  beforeAll(async () => {
    owner = await registerProjectOwner('FHIRcast Limits Clinic');
    const created = await http<any>('POST', 'fhir/R4/Patient', {
      token: owner.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Cast' }] },
    });
    patientId = created.body.id;
  });

  it("closes a socket (4401) when its sign-in's session ends, and opens it no more", async () => {
    // A sign-in whose session ends 3 s after its tokens were granted (no refresh comes).
    const token = await shortSessionSignIn(owner, 3);
    const topic = `session-${randomUUID()}`;
    const subscribed = await subscribe(topic, token);
    expect(subscribed.status).toBe(202);
    const endpoint = subscribed.body['hub.channel.endpoint'];
    const listener = listen(endpoint);
    expect(await listener.confirmed).toBe(true);
    // The confirmation's lease is what is left of the session, not the hub's day.
    expect(listener.lease()).toBeLessThanOrEqual(3);

    expect(await listener.closed).toEqual({
      code: signInEndedCode,
      reason: 'The sign-in session of this FHIRcast subscription has ended',
    });
    // The access token lasts its hour; the events it publishes reach no socket of the ended session.
    expect((await publish(topic, token)).status).toBe(202);
    expect(listener.events).toEqual([]);
    const reopened = listen(endpoint);
    expect(await reopened.confirmed).toBe(false);
    expect((await reopened.closed).code).toBe(signInEndedCode);
  });

  it('refuses a subscription past the open subscriptions of one sign-in (429)', async () => {
    const token = (await signInWithScope(owner.email, owner.password, 'openid profile')).access_token;
    const limit = defaultFhircastLimits.maxSubscriptionsPerLogin;
    // Each on a topic of its own: topic names cost nothing to make up.
    for (let i = 0; i < limit; i++) expect((await subscribe(`many-${i}-${randomUUID()}`, token)).status).toBe(202);
    const refused = await subscribe(`many-${randomUUID()}`, token);
    expect(refused.status).toBe(429);
    expect(issueText(refused.body)).toBe(
      `This sign-in has ${limit} open FHIRcast subscriptions, the most one sign-in may hold: unsubscribe one first`,
    );
    expect(issueExpressions(refused.body)).toEqual(['hub.mode']);
  });

  it('refuses a new topic past the topics one person may have (429); their topics go on', async () => {
    const person = await registerProjectOwner('FHIRcast Topics Clinic');
    const created = await http<any>('POST', 'fhir/R4/Patient', {
      token: person.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Topics' }] },
    });
    const token = person.tokens.access_token;
    const saved = patientId;
    patientId = created.body.id;
    try {
      const limit = defaultFhircastLimits.maxTopicsPerOwner;
      // More events than a burst may hold: past it, at the publishing rate (fhircastPublishRateLimit.unit.test.ts).
      for (let i = 0; i < limit; i++) expect((await publishWithinRate(`topic-${i}`, token)).status).toBe(202);
      const refused = await publishWithinRate(`topic-${limit}`, token);
      expect(refused.status).toBe(429);
      expect(issueText(refused.body)).toBe(
        `You have ${limit} FHIRcast topics, the most one person may have: publish to one of them (a topic no one follows is removed a day after its last change)`,
      );
      expect(issueExpressions(refused.body)).toEqual(['event.hub.topic']);
      expect((await publishWithinRate('topic-0', token)).status).toBe(202);
    } finally {
      patientId = saved;
    }
  });

  it('replaces the oldest socket of an endpoint opened again and again (1008)', async () => {
    const topic = `sockets-${randomUUID()}`;
    const endpoint = (await subscribe(topic, owner.tokens.access_token)).body['hub.channel.endpoint'];
    const listeners = [];
    for (let i = 0; i <= defaultFhircastLimits.maxSocketsPerSubscription; i++) {
      const listener = listen(endpoint);
      expect(await listener.confirmed).toBe(true);
      listeners.push(listener);
    }
    expect(await listeners[0].closed).toEqual({
      code: policyViolationCode,
      reason: 'Replaced by a newer socket of the same FHIRcast subscription',
    });
    expect((await publish(topic, owner.tokens.access_token)).status).toBe(202);
    const last = listeners[listeners.length - 1];
    for (let i = 0; i < 100 && last.events.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(last.events).toHaveLength(1);
    for (const listener of listeners) listener.socket.close();
  });

  it('closes a socket (1009) that sends a message larger than a client ever sends', async () => {
    const topic = `big-${randomUUID()}`;
    const listener = listen((await subscribe(topic, owner.tokens.access_token)).body['hub.channel.endpoint']);
    expect(await listener.confirmed).toBe(true);
    listener.socket.send('x'.repeat(64 * 1024));
    expect((await listener.closed).code).toBe(1009);
  });
});
