import type { WebSocket } from 'ws';
import type { FhircastEventEnvelope } from '../../data-provider/fhircast';
import type { Repository } from '../fhir/repository';
import {
  leaseEndedCode,
  policyViolationCode,
  sendWithinBacklog,
  signInEndedCode,
  type Subscriber,
  type SubscriberDirectory,
} from '../realtime';
import { contextVisibleTo } from './fhircastAccess';
import { defaultFhircastLimits, type FhircastLimits } from './fhircastLimits';
import type { FhircastSubscription } from './fhircastStore';

/** Close codes of a socket whose subscription can no longer be served (realtime/socketCloseCodes.ts). */
export { leaseEndedCode, signInEndedCode };

/** Why a socket closes with 4401: signed out, membership switched off, or the session's time is up. */
export const signInEndedReason = 'The sign-in session of this FHIRcast subscription has ended';

/** setTimeout's longest delay; a later end is looked at again then. */
const maxTimerMs = 2 ** 31 - 1;

interface Entry {
  subscription: FhircastSubscription;
  /** In the order they opened: the oldest is replaced when too many are open. */
  sockets: Set<WebSocket>;
  /** Ends the subscription's sockets at its lease's end or its session's, whichever comes first. */
  timer?: { at: number; handle: ReturnType<typeof setTimeout> };
}

/**
 * The FHIRcast websockets connected to this process, by subscription. A socket lives no longer
 * than the sign-in that subscribed (revoked, its membership switched off, its session's time up:
 * closed with 4401) and the lease it was granted (4410) — by a timer set for the earlier of the two,
 * and checked again at every delivery, so that a late timer delivers nothing past either; each event
 * reaches it only when its subscriber may read every record the context names, redacted for it
 * (fhircastAccess.ts).
 */
export class FhircastSockets {
  private readonly bySubscription = new Map<string, Entry>();
  /** Deliveries in the order the events came: each one waits for the database. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: Repository,
    private readonly subscribers: SubscriberDirectory,
    private readonly now: () => number = Date.now,
    private readonly limits: Pick<
      FhircastLimits,
      'maxSocketsPerSubscription' | 'maxBufferedBytesPerSocket'
    > = defaultFhircastLimits,
  ) {}

  /** The subscriber of a subscription being opened, or undefined (after closing `socket`) when it may not be. */
  async admit(subscription: FhircastSubscription, socket: WebSocket): Promise<Subscriber | undefined> {
    const problem = await this.problemOf(subscription);
    if ('code' in problem) {
      socket.close(problem.code, problem.reason);
      return undefined;
    }
    return problem.subscriber;
  }

  /** Serves `socket` for the subscription of `subscriber` (admitted), until its lease or session ends. */
  add(subscription: FhircastSubscription, socket: WebSocket, subscriber: Subscriber): void {
    let entry = this.bySubscription.get(subscription.id);
    if (!entry) {
      entry = { subscription, sockets: new Set() };
      this.bySubscription.set(subscription.id, entry);
    }
    const added = entry;
    // One endpoint is one client: a reconnect replaces its old socket (maybe a dead one no one closed)
    // rather than piling sockets on one subscription.
    while (added.sockets.size >= this.limits.maxSocketsPerSubscription) {
      const oldest = added.sockets.values().next().value as WebSocket;
      added.sockets.delete(oldest);
      oldest.close(policyViolationCode, 'Replaced by a newer socket of the same FHIRcast subscription');
    }
    added.sockets.add(socket);
    this.schedule(added, subscriber.sessionEnds);
    socket.once('close', () => {
      added.sockets.delete(socket);
      if (added.sockets.size === 0 && this.bySubscription.get(subscription.id) === added) {
        this.bySubscription.delete(subscription.id);
        if (added.timer) clearTimeout(added.timer.handle);
      }
    });
  }

  /** Sets the entry's timer to the end of its lease or of its session, whichever is first. */
  private schedule(entry: Entry, sessionEnds: number): void {
    const at = Math.min(entry.subscription.expires, sessionEnds);
    if (entry.timer?.at === at) return;
    if (entry.timer) clearTimeout(entry.timer.handle);
    const handle = setTimeout(
      () => {
        entry.timer = undefined;
        void this.recheckEntry(entry);
      },
      Math.min(Math.max(0, at - this.now()), maxTimerMs),
    );
    handle.unref?.();
    entry.timer = { at, handle };
  }

  /** Checks one subscription again in the delivery order (its timer ran out): closed, or timed anew. */
  private recheckEntry(entry: Entry): Promise<void> {
    const check = this.queue.then(async () => {
      if (this.bySubscription.get(entry.subscription.id) !== entry) return;
      await this.subscriberOf(entry);
    });
    this.queue = check.catch((error: unknown) => console.error('fhircast: checking a subscription failed', error));
    return this.queue;
  }

  /** Sends the event to every socket subscribed to its topic and event name that may see it. */
  deliver(projectId: string, topic: string, envelope: FhircastEventEnvelope): Promise<void> {
    const delivery = this.queue.then(() => this.deliverNow(projectId, topic, envelope));
    this.queue = delivery.catch(() => undefined);
    return delivery;
  }

  /**
   * Checks every open subscription again (an access-defining write, or the periodic sweep for
   * leases): those whose sign-in ended or whose lease ran out are closed at once.
   */
  recheck(): Promise<void> {
    const sweep = this.queue.then(async () => {
      for (const entry of [...this.bySubscription.values()]) await this.subscriberOf(entry);
    });
    this.queue = sweep.catch(() => undefined);
    return sweep;
  }

  /** Closes the sockets of an ended subscription (1000: the subscriber asked for it). */
  end(subscriptionId: string): void {
    this.close(subscriptionId, 1000, 'unsubscribed');
  }

  count(): number {
    let total = 0;
    for (const { sockets } of this.bySubscription.values()) total += sockets.size;
    return total;
  }

  private async deliverNow(projectId: string, topic: string, envelope: FhircastEventEnvelope): Promise<void> {
    for (const entry of [...this.bySubscription.values()]) {
      const { subscription } = entry;
      if (subscription.projectId !== projectId || subscription.topic !== topic) continue;
      if (!subscription.events.includes(envelope.event['hub.event'])) continue;
      const subscriber = await this.subscriberOf(entry);
      if (!subscriber) continue;
      const context = await contextVisibleTo(this.repository, subscriber.access, envelope.event.context ?? []);
      // An event naming a record the subscriber may not read is not its business (nor is its timing).
      if (!context) continue;
      const data = JSON.stringify({ ...envelope, event: { ...envelope.event, context } });
      // Checked again as it is sent: the context checks waited for the database.
      if (this.now() >= Math.min(subscription.expires, subscriber.sessionEnds)) {
        await this.subscriberOf(entry);
        continue;
      }
      for (const socket of entry.sockets) sendWithinBacklog(socket, data, this.limits.maxBufferedBytesPerSocket);
    }
  }

  /** The entry's subscriber now; undefined after closing its sockets when it may no longer be served. */
  private async subscriberOf(entry: Entry): Promise<Subscriber | undefined> {
    const problem = await this.problemOf(entry.subscription);
    if ('code' in problem) {
      this.close(entry.subscription.id, problem.code, problem.reason);
      return undefined;
    }
    // A refresh of the sign-in may have moved its end: the timer follows.
    if (this.bySubscription.get(entry.subscription.id) === entry) this.schedule(entry, problem.subscriber.sessionEnds);
    return problem.subscriber;
  }

  private async problemOf(
    subscription: FhircastSubscription,
  ): Promise<{ subscriber: Subscriber } | { code: number; reason: string }> {
    if (this.now() >= subscription.expires) {
      return { code: leaseEndedCode, reason: 'The lease of this FHIRcast subscription has ended' };
    }
    const subscriber = await this.subscribers.get(subscription.loginId);
    if (!subscriber || subscriber.projectId !== subscription.projectId) {
      return { code: signInEndedCode, reason: signInEndedReason };
    }
    // Said by the directory too; asked here by this clock, as the lease is.
    if (this.now() >= subscriber.sessionEnds) {
      return { code: signInEndedCode, reason: signInEndedReason };
    }
    if (this.now() >= subscription.expires) {
      return { code: leaseEndedCode, reason: 'The lease of this FHIRcast subscription has ended' };
    }
    return { subscriber };
  }

  private close(subscriptionId: string, code: number, reason: string): void {
    const entry = this.bySubscription.get(subscriptionId);
    if (!entry) return;
    this.bySubscription.delete(subscriptionId);
    if (entry.timer) clearTimeout(entry.timer.handle);
    for (const socket of entry.sockets) socket.close(code, reason);
  }
}
