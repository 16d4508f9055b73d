import type { Communication, Patient } from '@medplum/fhirtypes';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FhirClient } from '../../../data-provider/client';
import {
  SubscriptionManager,
  type SubscriptionNotification,
  type WebSocketConstructor,
  websocketSubscription,
} from '../../../data-provider/realtime';
import { ownerClient } from './clientSession';

/** A subscription through data-provider/realtime receives the server's notification of a write. */
describe('SubscriptionManager against the server', () => {
  let client: FhirClient;
  let manager: SubscriptionManager;
  const errors: Error[] = [];

  beforeAll(async () => {
    ({ client } = await ownerClient());
    manager = new SubscriptionManager({
      backend: {
        createSubscription: async (criteria) => ({
          id: (await client.createResource(websocketSubscription(criteria))).id as string,
        }),
        getBindingToken: (id) => client.getSubscriptionBindingToken(id),
      },
      // Node 20 has no global WebSocket; the `ws` client has the same shape.
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    manager.on('error', ({ error }) => errors.push(error));
  });

  afterAll(() => manager?.close());

  it('binds, then delivers a notification for a matching write and none for another', async () => {
    const patient = await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Live' }] });
    const other = await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Other' }] });
    const criteria = `Communication?subject=Patient/${patient.id}`;

    const bound = new Promise<{ subscriptionId: string }>((resolve) =>
      manager.on('bound', (event) => {
        if (event.criteria === criteria) resolve(event);
      }),
    );
    const received: SubscriptionNotification[] = [];
    const first = new Promise<SubscriptionNotification>((resolve) =>
      manager.addListener(criteria, (notification) => {
        received.push(notification);
        resolve(notification);
      }),
    );
    const { subscriptionId } = await bound;
    expect(subscriptionId).toBe(manager.getSubscriptionId(criteria));
    const stored = await client.readResource('Subscription', subscriptionId);
    expect(stored).toMatchObject({ status: 'active', criteria, channel: { type: 'websocket' } });

    // Not about this patient: no notification; the next one is the matching write.
    await client.createResource<Communication>({
      resourceType: 'Communication',
      status: 'in-progress',
      subject: { reference: `Patient/${other.id}` },
    });
    const matching = await client.createResource<Communication>({
      resourceType: 'Communication',
      status: 'in-progress',
      subject: { reference: `Patient/${patient.id}` },
      payload: [{ contentString: 'hello' }],
    });
    const notification = await first;
    expect(notification.criteria).toBe(criteria);
    expect(notification.subscriptionId).toBe(subscriptionId);
    expect(notification.resource).toMatchObject({ resourceType: 'Communication', id: matching.id });
    expect(received).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('a second listener of the same criteria shares the subscription', async () => {
    const patient = await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Shared' }] });
    const criteria = `Communication?subject=Patient/${patient.id}`;
    const bound = new Promise<void>((resolve) =>
      manager.on('bound', (event) => {
        if (event.criteria === criteria) resolve();
      }),
    );
    const one = new Promise<SubscriptionNotification>((resolve) => manager.addListener(criteria, resolve));
    const two = new Promise<SubscriptionNotification>((resolve) => manager.addListener(criteria, resolve));
    await bound;
    const subscriptions = await client.searchResources('Subscription', { criteria }, { cache: 'no-store' });
    expect(subscriptions).toHaveLength(1);
    const written = await client.createResource<Communication>({
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: `Patient/${patient.id}` },
    });
    const [a, b] = await Promise.all([one, two]);
    expect(a.resource?.id).toBe(written.id);
    expect(b.resource?.id).toBe(written.id);
  });
});
