import type { Patient } from '@medplum/fhirtypes';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FhirClient } from '../../../data-provider/client';
import { FhircastClient, FhircastHubError } from '../../../data-provider/fhircast';
import { ownerClient } from './clientSession';

/** Messages of one websocket, with a way to wait for the first that matches. */
function collect(socket: WebSocket) {
  const messages: Record<string, unknown>[] = [];
  const waiters: { test: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }[] =
    [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    messages.push(message);
    for (const waiter of waiters.splice(0)) {
      if (waiter.test(message)) waiter.resolve(message);
      else waiters.push(waiter);
    }
  });
  return {
    messages,
    next: (test: (m: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const seen = messages.find(test);
        if (seen) resolve(seen);
        else waiters.push({ test, resolve });
      }),
  };
}

/** The FHIRcast hub client (spec §7 'Hub') against the server's hub. */
describe('FhircastClient against the server', () => {
  let client: FhirClient;
  let hub: FhircastClient;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    ({ client } = await ownerClient());
    hub = new FhircastClient({ baseUrl: inject('baseUrl'), getAccessToken: () => client.getAccessToken() });
  });

  afterAll(() => sockets.forEach((socket) => socket.close()));

  it('subscribe, receive a published event on the websocket, read the context, unsubscribe', async () => {
    const topic = `client-topic-${Date.now()}`;
    const patient = await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Cast' }] });
    const endpoint = await hub.subscribe(topic, ['Patient-open', 'Patient-close']);
    expect(endpoint).toMatch(/^ws:\/\//);

    const socket = new WebSocket(endpoint);
    sockets.push(socket);
    const inbox = collect(socket);
    const confirmation = await inbox.next((m) => m['hub.mode'] === 'subscribe');
    expect(confirmation['hub.topic']).toBe(topic);

    const sent = await hub.publish(topic, 'Patient-open', [
      { key: 'patient', resource: { resourceType: 'Patient', id: patient.id as string } },
    ]);
    const delivered = await inbox.next(
      (m) => (m.event as Record<string, unknown> | undefined)?.['hub.event'] === 'Patient-open',
    );
    expect(delivered.id).toBe(sent.id);

    const context = await hub.getCurrentContext(topic);
    expect(JSON.stringify(context.context)).toContain(patient.id as string);

    await hub.unsubscribe({ topic, events: ['Patient-open', 'Patient-close'], endpoint });
    const closed = await new Promise<number>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) resolve(socket.readyState);
      else socket.on('close', () => resolve(socket.readyState));
    });
    expect(closed).toBe(WebSocket.CLOSED);
  });

  it('refuses bad requests before sending, and reports the hub refusals with their outcome', async () => {
    await expect(hub.subscribe('', ['Patient-open'])).rejects.toThrow();
    await expect(
      hub.publish('t', 'Patient-open', [{ key: 'patient', resource: { resourceType: 'Observation', id: 'x' } }]),
    ).rejects.toThrow();
    const unknownEndpoint = await hub
      .unsubscribe({ topic: 'nobody', events: ['Patient-open'], endpoint: 'ws://127.0.0.1:1/ws/fhircast/none' })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(unknownEndpoint).toBeInstanceOf(FhircastHubError);
    expect((unknownEndpoint as FhircastHubError).status).toBe(400);
    expect((unknownEndpoint as FhircastHubError).message).toContain('No subscription to topic "nobody"');
    const signedOut = new FhircastClient({ baseUrl: inject('baseUrl') });
    const refused = await signedOut.getCurrentContext('anything').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as FhircastHubError).status).toBe(401);
  });
});
