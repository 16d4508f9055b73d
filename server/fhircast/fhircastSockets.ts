import type { WebSocket } from 'ws';
import type { FhircastEventEnvelope } from '../../data-provider/fhircast';
import type { FhircastSubscription } from './fhircastStore';

/** The FHIRcast websockets connected to this process, by subscription. */
export class FhircastSockets {
  private readonly bySubscription = new Map<string, { subscription: FhircastSubscription; sockets: Set<WebSocket> }>();

  add(subscription: FhircastSubscription, socket: WebSocket): void {
    let entry = this.bySubscription.get(subscription.id);
    if (!entry) {
      entry = { subscription, sockets: new Set() };
      this.bySubscription.set(subscription.id, entry);
    }
    entry.sockets.add(socket);
    socket.once('close', () => {
      entry.sockets.delete(socket);
      if (entry.sockets.size === 0 && this.bySubscription.get(subscription.id) === entry) {
        this.bySubscription.delete(subscription.id);
      }
    });
  }

  /** Sends the event to every socket subscribed to its topic and event name. */
  deliver(projectId: string, topic: string, envelope: FhircastEventEnvelope): number {
    const data = JSON.stringify(envelope);
    let sent = 0;
    for (const { subscription, sockets } of this.bySubscription.values()) {
      if (subscription.projectId !== projectId || subscription.topic !== topic) continue;
      if (!subscription.events.includes(envelope.event['hub.event'])) continue;
      for (const socket of sockets) {
        if (socket.readyState !== socket.OPEN) continue;
        socket.send(data);
        sent++;
      }
    }
    return sent;
  }

  /** Closes the sockets of an ended subscription (1000: the subscriber asked for it). */
  end(subscriptionId: string): void {
    const entry = this.bySubscription.get(subscriptionId);
    if (!entry) return;
    this.bySubscription.delete(subscriptionId);
    for (const socket of entry.sockets) socket.close(1000, 'unsubscribed');
  }

  count(): number {
    let total = 0;
    for (const { sockets } of this.bySubscription.values()) total += sockets.size;
    return total;
  }
}
