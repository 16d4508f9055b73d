import type { WebSocket } from 'ws';
import type { FhircastEventEnvelope } from '../../data-provider/fhircast';
import type { Repository } from '../fhir/repository';
import type { Subscriber, SubscriberDirectory } from '../realtime';
import { contextVisibleTo } from './fhircastAccess';
import type { FhircastSubscription } from './fhircastStore';

/** Close codes of a socket whose subscription can no longer be served. */
export const signInEndedCode = 4401;
export const leaseEndedCode = 4410;

interface Entry {
  subscription: FhircastSubscription;
  sockets: Set<WebSocket>;
}

/**
 * The FHIRcast websockets connected to this process, by subscription. A socket lives no longer
 * than the sign-in that subscribed (revoked, its membership switched off: closed with 4401) and
 * the lease it was granted (4410); each event reaches it only when its subscriber may read every
 * record the context names, redacted for it (fhircastAccess.ts).
 */
export class FhircastSockets {
  private readonly bySubscription = new Map<string, Entry>();
  /** Deliveries in the order the events came: each one waits for the database. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: Repository,
    private readonly subscribers: SubscriberDirectory,
    private readonly now: () => number = Date.now,
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

  add(subscription: FhircastSubscription, socket: WebSocket): void {
    let entry = this.bySubscription.get(subscription.id);
    if (!entry) {
      entry = { subscription, sockets: new Set() };
      this.bySubscription.set(subscription.id, entry);
    }
    const added = entry;
    added.sockets.add(socket);
    socket.once('close', () => {
      added.sockets.delete(socket);
      if (added.sockets.size === 0 && this.bySubscription.get(subscription.id) === added) {
        this.bySubscription.delete(subscription.id);
      }
    });
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
      for (const socket of entry.sockets) {
        if (socket.readyState === socket.OPEN) socket.send(data);
      }
    }
  }

  /** The entry's subscriber now; undefined after closing its sockets when it may no longer be served. */
  private async subscriberOf(entry: Entry): Promise<Subscriber | undefined> {
    const problem = await this.problemOf(entry.subscription);
    if ('code' in problem) {
      this.close(entry.subscription.id, problem.code, problem.reason);
      return undefined;
    }
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
      return { code: signInEndedCode, reason: 'The sign-in of this FHIRcast subscription has ended' };
    }
    return { subscriber };
  }

  private close(subscriptionId: string, code: number, reason: string): void {
    const entry = this.bySubscription.get(subscriptionId);
    if (!entry) return;
    this.bySubscription.delete(subscriptionId);
    for (const socket of entry.sockets) socket.close(code, reason);
  }
}
