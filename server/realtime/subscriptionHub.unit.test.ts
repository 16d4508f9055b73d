import type { Patient, Subscription } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { AccessGuard } from '../auth/accessGuard';
import { Repository, type RequestContext } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import { ActiveSubscriptionCache } from './activeSubscriptions';
import { ClusterBus } from './clusterBus';
import type { Subscriber, SubscriberDirectory } from './subscriberAccess';
import { SubscriptionHub, type SubscriptionClient } from './subscriptionHub';

/* eslint-disable @typescript-eslint/no-explicit-any -- notification Bundles of many shapes */

const database = embeddedTestDatabase('subscription-hub');
const ctx: RequestContext = { projectId: 'project-a', author: { reference: 'Practitioner/author' } };
const start = Date.parse('2026-11-01T08:00:00Z');

/** A socket as the hub sees it, recording what it is sent and which bindings ended. */
class RecordingClient implements SubscriptionClient {
  readonly sent: any[] = [];
  readonly ended: { ids: readonly string[]; remaining: number }[] = [];
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  bindingsEnded(ids: readonly string[], remaining: number): void {
    this.ended.push({ ids, remaining });
  }
  notifications(): any[] {
    return this.sent.filter((m) => m.entry?.[0]?.resource?.type === 'event-notification');
  }
}

describe('SubscriptionHub: session ends and limits', { timeout: 60_000 }, () => {
  let repository: Repository;
  let hub: SubscriptionHub;
  let now = start;
  /** The directory's answer per login: what a cached entry would say, however stale. */
  const known = new Map<string, Subscriber | undefined>();
  const subscriber = (loginId: string, sessionEnds: number): Subscriber => ({
    loginId,
    projectId: 'project-a',
    access: new AccessGuard(
      { projectId: 'project-a', sharedProjectId: 'shared', superAdmin: false },
      repository.registry,
    ),
    sessionEnds,
  });

  beforeAll(async () => {
    repository = new Repository(database(), definitionSearchParameters());
    const directory = {
      now: () => now,
      get: async (loginId: string) => known.get(loginId),
      invalidate: () => undefined,
    } as unknown as SubscriberDirectory;
    const bus = await ClusterBus.start(database());
    hub = new SubscriptionHub(
      repository,
      repository.registry,
      new ActiveSubscriptionCache(database(), repository.registry),
      directory,
      bus,
      'http://localhost/fhir/R4/',
      { maxBindingsPerSocket: 2, maxSocketsPerLogin: 2 },
    );
    hub.start();
  }, 120_000);

  const subscription = async (criteria: string) =>
    (
      await repository.create(ctx, {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'test',
        criteria,
        channel: { type: 'websocket' },
      } as Subscription)
    ).id as string;

  const patient = async (family: string) => {
    await repository.create(ctx, { resourceType: 'Patient', name: [{ family }] } as Patient);
    await hub.settled();
  };

  it('delivers nothing past the session end, even when its timer is late and a cache still says yes', async () => {
    // The timer is a minute away in real time: it has not run when the clock passes the end.
    const login = subscriber('login-late', start + 60_000);
    known.set('login-late', login);
    const id = await subscription('Patient?name=Latetimer');
    const client = new RecordingClient();
    expect(hub.bind(client, id, login)).toBeUndefined();

    await patient('Latetimer');
    expect(client.notifications()).toHaveLength(1);

    now = start + 60_000;
    await patient('Latetimer');
    expect(client.notifications()).toHaveLength(1);
    // The late binding is ended on the way (the directory, asked again, has nothing for it).
    known.set('login-late', undefined);
    await hub.reviewSessions();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.ended).toEqual([{ ids: [id], remaining: 0 }]);
    hub.heartbeat();
    expect(client.sent.filter((m) => m.entry?.[0]?.resource?.type === 'heartbeat')).toEqual([]);
    now = start;
  });

  it('keeps a binding whose session a refresh moved later, and ends it at the new end', async () => {
    known.set('login-refreshed', subscriber('login-refreshed', start + 1_000));
    const id = await subscription('Patient?name=Refreshed');
    const client = new RecordingClient();
    expect(hub.bind(client, id, subscriber('login-refreshed', start + 1_000))).toBeUndefined();
    // Refreshed: the directory now says the session goes on for an hour.
    known.set('login-refreshed', subscriber('login-refreshed', start + 3_600_000));
    now = start + 1_000;
    hub.heartbeat();
    await hub.reviewSessions();
    expect(client.ended).toEqual([]);
    await patient('Refreshed');
    expect(client.notifications()).toHaveLength(1);
    now = start;
  });

  it('refuses a binding past the bindings of one socket, and past the sockets of one login', async () => {
    const login = subscriber('login-limits', start + 3_600_000);
    known.set('login-limits', login);
    const ids = [
      await subscription('Patient?name=L1'),
      await subscription('Patient?name=L2'),
      await subscription('Patient?name=L3'),
    ];
    const first = new RecordingClient();
    expect(hub.bind(first, ids[0], login)).toBeUndefined();
    expect(hub.bind(first, ids[1], login)).toBeUndefined();
    // Binding one already bound again is no new binding.
    expect(hub.bind(first, ids[1], login)).toBeUndefined();
    expect(hub.bind(first, ids[2], login)).toBe(
      'This socket has 2 bindings, the most one socket may hold: unbind one first, or open another socket',
    );

    const second = new RecordingClient();
    const third = new RecordingClient();
    expect(hub.bind(second, ids[2], login)).toBeUndefined();
    expect(hub.bind(third, ids[2], login)).toBe(
      'This sign-in has bindings on 2 sockets, the most one sign-in may hold: close one first',
    );
    // Another login is counted on its own; a socket that closes frees its place.
    expect(hub.bind(third, ids[2], subscriber('login-other', start + 3_600_000))).toBeUndefined();
    hub.removeClient(second);
    expect(hub.bind(third, ids[0], login)).toBeUndefined();
  });
});
