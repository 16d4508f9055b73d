import type { Resource } from '@medplum/fhirtypes';
import type { CommittedWrite, HistoryOperation, Repository } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import type { ActiveSubscriptionCache, ActiveSubscription } from './activeSubscriptions';
import type { ClusterBus } from './clusterBus';
import { maxMessageBytes } from './clusterBus';
import { contentOfWrite, evaluateCriteriaBatch, type CriteriaCheck } from './criteriaMatcher';
import { notificationBundle, statusBundle } from './notificationBundle';
import type { RealtimeLimits } from './realtimeLimits';
import { accessDefiningTypes, type Subscriber, type SubscriberDirectory } from './subscriberAccess';

/** One socket, as the hub sees it: something JSON text can be sent to. */
export interface SubscriptionClient {
  send(data: string): void;
  /**
   * The sign-in sessions behind these bindings ended (time up, signed out, membership switched off):
   * the hub has removed them; `remaining` bindings are left on the client.
   */
  bindingsEnded?(subscriptionIds: readonly string[], remaining: number): void;
  /**
   * The client went from no binding to some (`true`), or lost its last one (`false`: an unbind, a
   * deleted Subscription, an ended session), so that a socket without bindings can be timed.
   */
  boundChanged?(bound: boolean): void;
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

/** One socket's binding of one Subscription: whose token bound it, until when, and the events it was sent. */
interface Binding {
  loginId: string;
  /** The end of the login's session as last read (a refresh may move it later). */
  sessionEnds: number;
  events: number;
}

/** setTimeout's longest delay; a later session end is looked at again then. */
const maxTimerMs = 2 ** 31 - 1;

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
  /** The clients holding bindings of each login (a login's sockets on this process). */
  private readonly loginClients = new Map<string, Set<SubscriptionClient>>();
  /** Each client's timer for the earliest session end among its bindings. */
  private readonly sessionTimers = new Map<SubscriptionClient, { at: number; timer: ReturnType<typeof setTimeout> }>();
  /** Reviews of bound sessions, one after another. */
  private reviews: Promise<void> = Promise.resolve();
  private fullReview: Promise<void> | undefined;

  constructor(
    private readonly repository: Repository,
    private readonly registry: SearchParameterRegistry,
    private readonly cache: ActiveSubscriptionCache,
    private readonly subscribers: SubscriberDirectory,
    private readonly bus: ClusterBus,
    private readonly fhirBase: string,
    private readonly limits: Pick<RealtimeLimits, 'maxBindingsPerSocket' | 'maxSocketsPerLogin'>,
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
    for (const { timer } of this.sessionTimers.values()) clearTimeout(timer);
    this.sessionTimers.clear();
  }

  /**
   * Binds the subscription on the client for the subscriber, until its session ends. Answers why
   * not when a limit forbids it (too many bindings on the socket, too many sockets of the login).
   */
  bind(client: SubscriptionClient, subscriptionId: string, subscriber: Subscriber): string | undefined {
    const { loginId, sessionEnds } = subscriber;
    const ids = this.clientBindings.get(client);
    if (!ids?.has(subscriptionId) && (ids?.size ?? 0) >= this.limits.maxBindingsPerSocket) {
      return `This socket has ${this.limits.maxBindingsPerSocket} bindings, the most one socket may hold: unbind one first, or open another socket`;
    }
    const sockets = this.loginClients.get(loginId);
    if (!sockets?.has(client) && (sockets?.size ?? 0) >= this.limits.maxSocketsPerLogin) {
      return `This sign-in has bindings on ${this.limits.maxSocketsPerLogin} sockets, the most one sign-in may hold: close one first`;
    }
    const wasBound = this.clientBindings.has(client);
    const previous = this.bindings.get(subscriptionId)?.get(client);
    if (previous) this.removeBinding(client, subscriptionId);
    let clients = this.bindings.get(subscriptionId);
    if (!clients) {
      clients = new Map();
      this.bindings.set(subscriptionId, clients);
    }
    // Binding again starts the count again (docs/realtime.md).
    clients.set(client, { loginId, sessionEnds, events: 0 });
    let bound = this.clientBindings.get(client);
    if (!bound) {
      bound = new Set();
      this.clientBindings.set(client, bound);
    }
    bound.add(subscriptionId);
    let loginSockets = this.loginClients.get(loginId);
    if (!loginSockets) {
      loginSockets = new Set();
      this.loginClients.set(loginId, loginSockets);
    }
    loginSockets.add(client);
    this.scheduleSessionEnd(client);
    if (!wasBound) tellBoundChanged(client, true);
    return undefined;
  }

  unbind(client: SubscriptionClient, subscriptionId: string): boolean {
    const removed = this.removeBinding(client, subscriptionId);
    if (removed && !this.clientBindings.has(client)) tellBoundChanged(client, false);
    return removed;
  }

  /** Removes one binding, without telling the client (`unbind` does; a closed socket needs nothing). */
  private removeBinding(client: SubscriptionClient, subscriptionId: string): boolean {
    const clients = this.bindings.get(subscriptionId);
    const binding = clients?.get(client);
    const removed = clients?.delete(client) ?? false;
    if (clients && clients.size === 0) this.bindings.delete(subscriptionId);
    const ids = this.clientBindings.get(client);
    ids?.delete(subscriptionId);
    if (ids && ids.size === 0) this.clientBindings.delete(client);
    if (binding && !this.loginsOf(client).has(binding.loginId)) {
      const sockets = this.loginClients.get(binding.loginId);
      sockets?.delete(client);
      if (sockets && sockets.size === 0) this.loginClients.delete(binding.loginId);
    }
    this.scheduleSessionEnd(client);
    return removed;
  }

  /** Forgets everything bound to a client (its socket closed). */
  removeClient(client: SubscriptionClient): void {
    for (const subscriptionId of [...(this.clientBindings.get(client) ?? [])]) {
      this.removeBinding(client, subscriptionId);
    }
    this.clientBindings.delete(client);
    this.scheduleSessionEnd(client);
  }

  /**
   * Looks again at the sessions behind every binding (after an access-defining write: a sign-out, a
   * membership switched off): bindings whose subscriber is gone are ended (`bindingsEnded`).
   */
  reviewSessions(): Promise<void> {
    // One review of everything waiting is enough, however many writes asked for one meanwhile.
    if (!this.fullReview) {
      this.fullReview = this.reviews.then(() => {
        this.fullReview = undefined;
        return this.review([...this.clientBindings.keys()], false);
      });
    }
    return this.fullReview;
  }

  /**
   * The events this client's binding of the subscription was sent. Counted per binding, not per
   * subscription: a shared count would tell one subscriber how many notifications another one (with
   * a wider access policy, bound to the same Subscription) was sent about resources it may not read.
   */
  eventCount(client: SubscriptionClient, subscriptionId: string): number {
    return this.bindings.get(subscriptionId)?.get(client)?.events ?? 0;
  }

  /**
   * Tells every bound subscription that it is alive (SubscriptionStatus type heartbeat) — not those
   * whose session's time is up, which are ended now if their timer has not done it yet.
   */
  heartbeat(): void {
    const now = this.subscribers.now();
    const late: SubscriptionClient[] = [];
    for (const [client, ids] of this.clientBindings) {
      for (const id of ids) {
        const binding = this.bindings.get(id)?.get(client);
        if (!binding) continue;
        if (now >= binding.sessionEnds) {
          if (!late.includes(client)) late.push(client);
          continue;
        }
        safeSend(client, JSON.stringify(statusBundle(id, 'heartbeat', binding.events)));
      }
    }
    if (late.length > 0) void this.review(late, true);
  }

  /** The logins bound on a client. */
  private loginsOf(client: SubscriptionClient): Set<string> {
    const logins = new Set<string>();
    for (const id of this.clientBindings.get(client) ?? []) {
      const binding = this.bindings.get(id)?.get(client);
      if (binding) logins.add(binding.loginId);
    }
    return logins;
  }

  /** Sets the client's timer to the earliest session end among its bindings (none without bindings). */
  private scheduleSessionEnd(client: SubscriptionClient): void {
    let earliest = Infinity;
    for (const id of this.clientBindings.get(client) ?? []) {
      const binding = this.bindings.get(id)?.get(client);
      if (binding && binding.sessionEnds < earliest) earliest = binding.sessionEnds;
    }
    const current = this.sessionTimers.get(client);
    if (current?.at === earliest) return;
    if (current) clearTimeout(current.timer);
    this.sessionTimers.delete(client);
    if (earliest === Infinity) return;
    const delay = Math.min(Math.max(0, earliest - this.subscribers.now()), maxTimerMs);
    const timer = setTimeout(() => {
      this.sessionTimers.delete(client);
      void this.review([client], true);
    }, delay);
    timer.unref();
    this.sessionTimers.set(client, { at: earliest, timer });
  }

  /**
   * Ends the bindings of the clients whose subscriber is gone: all of them, or (`expiredOnly`) only
   * those past the session end they were bound with — asked again first, as a refresh of the
   * sign-in may have moved it (then the binding goes on until the new end).
   */
  private review(clients: readonly SubscriptionClient[], expiredOnly: boolean): Promise<void> {
    const review = this.reviews.then(async () => {
      for (const client of clients) {
        const ended: string[] = [];
        for (const loginId of this.loginsOf(client)) {
          const ids = [...(this.clientBindings.get(client) ?? [])].filter(
            (id) => this.bindings.get(id)?.get(client)?.loginId === loginId,
          );
          const due = (id: string) => (this.bindings.get(id)?.get(client)?.sessionEnds ?? 0) <= this.subscribers.now();
          if (expiredOnly && !ids.some(due)) continue;
          const subscriber = await this.subscribers.get(loginId);
          for (const id of ids) {
            const binding = this.bindings.get(id)?.get(client);
            if (!binding || binding.loginId !== loginId) continue;
            if (subscriber) binding.sessionEnds = subscriber.sessionEnds;
            else ended.push(id);
          }
        }
        for (const id of ended) this.unbind(client, id);
        this.scheduleSessionEnd(client);
        if (ended.length > 0) {
          try {
            client.bindingsEnded?.(ended, this.clientBindings.get(client)?.size ?? 0);
          } catch {
            // A socket closing right now: its close handler forgets it.
          }
        }
      }
    });
    // Never rejects: its callers do not wait (a timer, a heartbeat, a commit listener).
    this.reviews = review.catch((error: unknown) => console.error('realtime: reviewing bound sessions failed', error));
    return this.reviews;
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
    this.noteChanged(writes.map((write) => ({ t: write.resource.resourceType, i: write.resource.id as string })));
    this.enqueue(writes);
    if (this.bus.shared) {
      this.announce(writes).catch((error: unknown) => console.error('realtime: announcing writes failed', error));
    }
  }

  /** Caches that depend on Subscriptions or on access must not outlive a change to them. */
  private noteChanged(refs: readonly Pick<WriteRef, 't' | 'i'>[]): void {
    if (refs.some((ref) => ref.t === 'Subscription')) this.cache.invalidate();
    if (!refs.some((ref) => accessDefiningTypes.has(ref.t))) return;
    this.subscribers.invalidate();
    if (this.clientBindings.size === 0) return;
    // A sign-out or a membership switched off ends its bindings at once, not only their notifications.
    // Logins are written at every sign-in and refresh of anyone: only the sockets of those logins are
    // looked at again; a membership, policy or project change (an admin's act) looks at all.
    if (refs.some((ref) => accessDefiningTypes.has(ref.t) && ref.t !== 'Login')) {
      void this.reviewSessions();
      return;
    }
    const clients = new Set<SubscriptionClient>();
    for (const ref of refs) {
      if (ref.t === 'Login') for (const client of this.loginClients.get(ref.i) ?? []) clients.add(client);
    }
    if (clients.size > 0) void this.review([...clients], false);
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
    this.noteChanged(refs);
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
        if (!binding || binding.loginId !== candidate.subscriber.loginId) continue;
        // Checked at the moment of sending, whatever the timers do: nothing after the session's end.
        if (this.subscribers.now() >= candidate.subscriber.sessionEnds) {
          void this.review([candidate.client], true);
          continue;
        }
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

function tellBoundChanged(client: SubscriptionClient, bound: boolean): void {
  try {
    client.boundChanged?.(bound);
  } catch (error) {
    // The hub's own state is already right; a client's failure must not undo it.
    console.error('realtime: telling a socket of its bindings failed', error);
  }
}

function safeSend(client: SubscriptionClient, data: string): void {
  try {
    client.send(data);
  } catch {
    // A socket closing right now: its close handler removes its bindings.
  }
}
