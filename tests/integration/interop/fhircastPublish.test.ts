import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { MedplumClient } from '@medplum/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl } from '../fhirClient';
import { registerProjectOwner } from '../accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIRcast messages are free-form JSON */

/** Issue 18: Medplum's fhircastPublish POSTs the event as JSON to the hub base; subscribers must get it. */
describe("FHIRcast events from @medplum/core's fhircastSubscribe / fhircastPublish", () => {
  let medplum: MedplumClient;
  let outsider: MedplumClient;

  const clientFor = (token: string) => {
    const client = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
    client.setAccessToken(token);
    return client;
  };

  /** A websocket subscriber that collects what the hub sends (Node 20 has no global WebSocket for the client's own). */
  function listen(endpoint: string) {
    const socket = new WebSocket(endpoint);
    const messages: any[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const waitFor = async (match: (message: any) => boolean, ms = 5000) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const found = messages.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return undefined;
    };
    return { socket, messages, waitFor };
  }

  beforeAll(async () => {
    medplum = clientFor((await registerProjectOwner()).tokens.access_token);
    outsider = clientFor((await registerProjectOwner()).tokens.access_token);
  });

  it('delivers an event published to the hub base to the subscribers of its topic, in its project only', async () => {
    const topic = `topic-${randomUUID()}`;
    const subscription = await medplum.fhircastSubscribe(topic, ['Patient-open']);
    expect(subscription.endpoint).toMatch(/\/ws\/fhircast\//);
    const listener = listen(subscription.endpoint as string);
    expect(await listener.waitFor((m) => m['hub.mode'] === 'subscribe')).toBeDefined();
    // Another project subscribed to the same topic name hears nothing of it.
    const foreign = await outsider.fhircastSubscribe(topic, ['Patient-open']);
    const foreignListener = listen(foreign.endpoint as string);
    expect(await foreignListener.waitFor((m) => m['hub.mode'] === 'subscribe')).toBeDefined();

    const answer = await medplum.fhircastPublish(topic, 'Patient-open', {
      key: 'patient',
      resource: { resourceType: 'Patient', id: 'cast-1' },
    });
    expect(answer.success).toBe(true);
    const delivered = await listener.waitFor((m) => m.event?.['hub.event'] === 'Patient-open');
    expect(delivered.event['hub.topic']).toBe(topic);
    expect(delivered.event.context[0].resource.id).toBe('cast-1');
    // The topic's context is what was published (the same as posting to /fhircast/STU3/{topic}).
    const context = await medplum.fhircastGetContext(topic);
    expect((context as any).context[0].resource.id).toBe('cast-1');
    expect(await foreignListener.waitFor((m) => m.event !== undefined, 500)).toBeUndefined();
    listener.socket.close();
    foreignListener.socket.close();
  });

  it('answers a JSON event without a topic or with a bad context with 400', async () => {
    const noTopic = await fetch(new URL('fhircast/STU3', baseUrl()), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${medplum.getAccessToken()}` },
      body: JSON.stringify({
        id: 'e1',
        timestamp: new Date().toISOString(),
        event: { 'hub.event': 'Patient-open', context: [] },
      }),
    });
    expect(noTopic.status).toBe(400);
    // Checked by the hub itself (a raw post, not the client's own checks): Patient-open needs a patient.
    const wrongContext = await fetch(new URL('fhircast/STU3', baseUrl()), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${medplum.getAccessToken()}` },
      body: JSON.stringify({
        id: 'e2',
        timestamp: new Date().toISOString(),
        event: {
          'hub.topic': `topic-${randomUUID()}`,
          'hub.event': 'Patient-open',
          context: [{ key: 'encounter', resource: { resourceType: 'Encounter', id: 'e1' } }],
        },
      }),
    });
    expect(wrongContext.status).toBe(400);
    // And without a token, nothing is published.
    const anonymous = await fetch(new URL('fhircast/STU3', baseUrl()), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: { 'hub.topic': 't', 'hub.event': 'Patient-open', context: [] } }),
    });
    expect(anonymous.status).toBe(401);
  });
});
