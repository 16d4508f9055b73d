import type { Resource } from '@medplum/fhirtypes';
import type { CommittedWrite, HistoryOperation, Repository } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import type { ActiveSubscriptionCache, ActiveSubscription } from './activeSubscriptions';
import type { ClusterBus } from './clusterBus';
import { maxMessageBytes } from './clusterBus';
import { contentOfWrite, evaluateCriteriaBatch, type CriteriaCheck } from './criteriaMatcher';
import { notificationBundle, statusBundle } from './notificationBundle';
import { accessDefiningTypes, type Subscriber, type SubscriberDirectory } from './subscriberAccess';

/** One socket, as the hub sees it: something JSON text can be sent to. */
export interface SubscriptionClient {
  send(data: string): void;
}

/** A committed write as announced to the other processes: keys only, contents are read from history. */
interface WriteRef {
  t: string;
  i: string;
  v: string;
  o: HistoryOperation;
  /** For a delete: the version whose content was removed. */
  p?: string;
}

const writesTopic = 'writes';

/** One socket's binding of one Subscription: whose token bound it, and the events it was sent. */
interface Binding {
  loginId: string;
  events: number;
}

/** Writes judged together in one database transaction. */
const writesPerRound = 200;

export interface HubStats {
  clients: number;
  bindings: number;
  notificationsSent: number;
  pendingWrites: number;
}

/**
 * The subscriptions bound to this process's sockets, and the delivery of notifications to them.
 * Every committed write (made here, or announced by another process through the cluster bus) is
 * checked against the active websocket Subscriptions of its type that are bound here, as each
 * subscriber: criteria with the search API's SQL, under the subscriber's current access policy.
 * Writes are judged in commit order, in rounds, each round in one transaction.
 */
export class SubscriptionHub {
  private readonly bindings = new Map<string, Map<SubscriptionClient, Binding>>();
  private readonly clientBindings = new Map<SubscriptionClient, Set<string>>();
  private queue: CommittedWrite[] = [];
  private draining = false;
  private idle: Promise<void> = Promise.resolve();
  private notificationsSent = 0;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly repository: Repository,
    private readonly registry: SearchParameterRegistry,
    private readonly cache: ActiveSubscriptionCache,
    private readonly subscribers: SubscriberDirectory,
    private readonly bus: ClusterBus,
    private readonly fhirBase: string,
  ) {}

  start(): void {
    this.stops.push(this.repository.onCommitted((writes) => this.onLocalCommit(writes)));
    this.stops.push(
      this.bus.on(writesTopic, (message) => {
        this.onRemoteWrites(message.writes as WriteRef[]).catch((error: unknown) =>
          console.error('realtime: reading writes announced by another process failed', error),
        );
      }),
    );
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.queue = [];
  }

  bind(client: SubscriptionClient, subscriptionId: string, loginId: string): void {
    let clients = this.bindings.get(subscriptionId);
    if (!clients) {
      clients = new Map();
      this.bindings.set(subscriptionId, clients);
    }
    // Binding again starts the count again (docs/realtime.md).
    clients.set(client, { loginId, events: 0 });
    let ids = this.clientBindings.get(client);
    if (!ids) {
      ids = new Set();
      this.clientBindings.set(client, ids);
    }
    ids.add(subscriptionId);
  }

  unbind(client: SubscriptionClient, subscriptionId: string): boolean {
    const clients = this.bindings.get(subscriptionId);
    const removed = clients?.delete(client) ?? false;
    if (clients && clients.size === 0) this.bindings.delete(subscriptionId);
    const ids = this.clientBindings.get(client);
    ids?.delete(subscriptionId);
    if (ids && ids.size === 0) this.clientBindings.delete(client);
    return removed;
  }

  /** Forgets everything bound to a client (its socket closed). */
  removeClient(client: SubscriptionClient): void {
    for (const subscriptionId of [...(this.clientBindings.get(client) ?? [])]) this.unbind(client, subscriptionId);
    this.clientBindings.delete(client);
  }

  /**
   * The events this client's binding of the subscription was sent. Counted per binding, not per
   * subscription: a shared count would tell one subscriber how many notifications another one (with
   * a wider access policy, bound to the same Subscription) was sent about resources it may not read.
   */
  eventCount(client: SubscriptionClient, subscriptionId: string): number {
    return this.bindings.get(subscriptionId)?.get(client)?.events ?? 0;
  }

  /** Tells every bound subscription that it is alive (SubscriptionStatus type heartbeat). */
  heartbeat(): void {
    for (const [client, ids] of this.clientBindings) {
      for (const id of ids) {
        safeSend(client, JSON.stringify(statusBundle(id, 'heartbeat', this.eventCount(client, id))));
      }
    }
  }

  stats(): HubStats {
    let bindings = 0;
    for (const clients of this.bindings.values()) bindings += clients.size;
    return {
      clients: this.clientBindings.size,
      bindings,
      notificationsSent: this.notificationsSent,
      pendingWrites: this.queue.length,
    };
  }

  /** Resolves once every write received so far has been judged (tests and benchmarks). */
  settled(): Promise<void> {
    return this.idle;
  }

  private onLocalCommit(writes: readonly CommittedWrite[]): void {
    this.noteChangedTypes(writes.map((write) => write.resource.resourceType));
    this.enqueue(writes);
    if (this.bus.shared) {
      this.announce(writes).catch((error: unknown) => console.error('realtime: announcing writes failed', error));
    }
  }

  /** Caches that depend on Subscriptions or on access must not outlive a change to them. */
  private noteChangedTypes(types: readonly string[]): void {
    if (types.includes('Subscription')) this.cache.invalidate();
    if (types.some((type) => accessDefiningTypes.has(type))) this.subscribers.invalidate();
  }

  /** Announces writes to the other processes, except those no active websocket Subscription can want. */
  private async announce(writes: readonly CommittedWrite[]): Promise<void> {
    const refs: WriteRef[] = [];
    for (const write of writes) {
      const type = write.resource.resourceType;
      const relevant =
        type === 'Subscription' || accessDefiningTypes.has(type) || (await this.cache.watchedTypes()).has(type);
      if (!relevant) continue;
      const ref: WriteRef = {
        t: type,
        i: write.resource.id as string,
        v: write.resource.meta?.versionId as string,
        o: write.operation,
      };
      if (write.operation === 'delete' && write.previous?.meta?.versionId) ref.p = write.previous.meta.versionId;
      refs.push(ref);
    }
    // NOTIFY payloads are small: send the keys in as many messages as they need.
    let chunk: WriteRef[] = [];
    let size = 200;
    for (const ref of refs) {
      const refSize = JSON.stringify(ref).length + 1;
      if (chunk.length > 0 && size + refSize > maxMessageBytes) {
        await this.bus.publish(writesTopic, { writes: chunk });
        chunk = [];
        size = 200;
      }
      chunk.push(ref);
      size += refSize;
    }
    if (chunk.length > 0) await this.bus.publish(writesTopic, { writes: chunk });
  }

  private async onRemoteWrites(refs: WriteRef[]): Promise<void> {
    if (!Array.isArray(refs) || refs.length === 0) return;
    this.noteChangedTypes(refs.map((ref) => ref.t));
    if (this.bindings.size === 0) return;
    const versions = refs.flatMap((ref) => (ref.p ? [ref.v, ref.p] : [ref.v]));
    const rows = await this.repository.db.query<{ version_id: string; content: Resource }>(
      'SELECT version_id, content FROM resource_history WHERE version_id = ANY($1::text[])',
      [versions],
    );
    const byVersion = new Map(rows.map((row) => [row.version_id, row.content]));
    const writes: CommittedWrite[] = [];
    for (const ref of refs) {
      const resource = byVersion.get(ref.v);
      if (!resource) continue;
      writes.push({ operation: ref.o, resource, previous: ref.p ? byVersion.get(ref.p) : undefined });
    }
    this.enqueue(writes);
  }

  private enqueue(writes: readonly CommittedWrite[]): void {
    for (const write of writes) {
      if (write.resource.resourceType === 'Subscription' && write.operation === 'delete') {
        this.dropSubscription(write.resource.id as string);
      }
    }
    if (this.bindings.size === 0) return;
    this.queue.push(...writes);
    if (!this.draining) {
      this.draining = true;
      this.idle = this.drain();
    }
  }

  private dropSubscription(subscriptionId: string): void {
    for (const client of [...(this.bindings.get(subscriptionId)?.keys() ?? [])]) this.unbind(client, subscriptionId);
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const round = this.queue.splice(0, writesPerRound);
      try {
        await this.deliver(round);
      } catch (error) {
        console.error('realtime: notifying subscribers failed', error);
      }
    }
    this.draining = false;
  }

  private async deliver(writes: readonly CommittedWrite[]): Promise<void> {
    interface Candidate {
      subscription: ActiveSubscription;
      client: SubscriptionClient;
      subscriber: Subscriber;
      check: number;
    }
    // The round's questions: one per (subscriber, criteria), shared by every write of the round.
    const checks: CriteriaCheck[] = [];
    const checkIndex = new Map<string, number>();
    const subscribersOfRound = new Map<string, Promise<Subscriber | undefined>>();
    const candidatesOfType = new Map<string, Promise<Candidate[]>>();
    const candidatesFor = async (resourceType: string): Promise<Candidate[]> => {
      const bound = await this.cache.forType(resourceType, this.bindings.keys());
      const candidates: Candidate[] = [];
      for (const subscription of bound) {
        for (const [client, { loginId }] of this.bindings.get(subscription.id) ?? []) {
          let pending = subscribersOfRound.get(loginId);
          if (!pending) {
            pending = this.subscribers.get(loginId);
            subscribersOfRound.set(loginId, pending);
          }
          const subscriber = await pending;
          if (!subscriber) continue; // Revoked or ended: no more notifications.
          const key = `${loginId}\n${subscription.criteria}`;
          let check = checkIndex.get(key);
          if (check === undefined) {
            check = checks.length;
            checkIndex.set(key, check);
            checks.push({ criteria: subscription.parsed, access: subscriber.access });
          }
          candidates.push({ subscription, client, subscriber, check });
        }
      }
      return candidates;
    };
    const plans: { write: CommittedWrite; content: Resource; candidates: Candidate[] }[] = [];
    for (const write of writes) {
      const content = contentOfWrite(write);
      if (!content) continue;
      let pending = candidatesOfType.get(content.resourceType);
      if (!pending) {
        pending = candidatesFor(content.resourceType);
        candidatesOfType.set(content.resourceType, pending);
      }
      const candidates = await pending;
      if (candidates.length > 0) plans.push({ write, content, candidates });
    }
    if (plans.length === 0) return;
    const answers = await this.repository.transaction((session) =>
      evaluateCriteriaBatch(
        session.tx,
        this.registry,
        plans.map((plan) => plan.content),
        checks,
      ),
    );
    plans.forEach((plan, index) => {
      for (const candidate of plan.candidates) {
        if (!answers[index][candidate.check]) continue;
        // Still bound? (An unbind may have come in while the round was judged.)
        const binding = this.bindings.get(candidate.subscription.id)?.get(candidate.client);
        if (!binding) continue;
        const eventNumber = ++binding.events;
        const bundle = notificationBundle({
          subscriptionId: candidate.subscription.id,
          eventNumber,
          operation: plan.write.operation,
          resource: candidate.subscriber.access.redact(plan.content),
          fhirBase: this.fhirBase,
        });
        safeSend(candidate.client, JSON.stringify(bundle));
        this.notificationsSent++;
      }
    });
  }
}

/**
 * Calls `onChange` after every committed write of an access-defining type (a Login revoked, a
 * membership switched off, a policy changed), made on this process or announced by another one —
 * for the other holders of long-lived connections (FHIRcast sockets), which must end or narrow
 * them at once as the subscription hub does. Answers the function that stops watching.
 */
export function watchAccessChanges(repository: Repository, bus: ClusterBus, onChange: () => void): () => void {
  const changed = (types: readonly string[]) => {
    if (types.some((type) => accessDefiningTypes.has(type))) onChange();
  };
  const stopLocal = repository.onCommitted((writes) => changed(writes.map((write) => write.resource.resourceType)));
  // Every process's subscription hub announces these types (`announce`), whatever is subscribed.
  const stopRemote = bus.on(writesTopic, (message) => {
    const refs = message.writes;
    if (Array.isArray(refs)) changed(refs.map((ref: Partial<WriteRef>) => String(ref?.t)));
  });
  return () => {
    stopLocal();
    stopRemote();
  };
}

function safeSend(client: SubscriptionClient, data: string): void {
  try {
    client.send(data);
  } catch {
    // A socket closing right now: its close handler removes its bindings.
  }
}
