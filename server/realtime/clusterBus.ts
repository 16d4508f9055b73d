import { randomUUID } from 'node:crypto';
import type { Database } from '../storage/database';

/** The PostgreSQL channel every server process of one database listens on. */
export const clusterChannel = 'hearth_realtime';

/** NOTIFY refuses payloads of 8000 bytes or more; messages are kept well below. */
export const maxMessageBytes = 7500;

export type ClusterHandler = (message: Record<string, unknown>) => void;

interface Envelope {
  origin: string;
  topic: string;
  message: Record<string, unknown>;
}

/**
 * Small messages between the server processes of one database (ARCHITECTURE.md: no state only in
 * one process's memory). On native PostgreSQL they travel by LISTEN/NOTIFY; a process ignores its own
 * messages, because it has already handled them when it published. The embedded database has one
 * process, so messages go to that process's handlers only.
 */
export class ClusterBus {
  readonly origin = randomUUID();
  private readonly handlers = new Map<string, Set<ClusterHandler>>();
  private stopListening: (() => Promise<void>) | undefined;

  private constructor(private readonly db: Database) {}

  static async start(db: Database): Promise<ClusterBus> {
    const bus = new ClusterBus(db);
    if (db.listen && db.notify) {
      bus.stopListening = await db.listen(clusterChannel, (payload) => bus.receive(payload));
    }
    return bus;
  }

  /** True when other processes may share the database (messages leave this process). */
  get shared(): boolean {
    return this.stopListening !== undefined;
  }

  on(topic: string, handler: ClusterHandler): () => void {
    let set = this.handlers.get(topic);
    if (!set) {
      set = new Set();
      this.handlers.set(topic, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Sends `message` to the other processes (not to this one: the publisher acts locally itself). */
  async publish(topic: string, message: Record<string, unknown>): Promise<void> {
    if (!this.shared || !this.db.notify) return;
    const payload = JSON.stringify({ origin: this.origin, topic, message } satisfies Envelope);
    if (Buffer.byteLength(payload) > maxMessageBytes) {
      throw new Error(`Cluster message for ${topic} is too large (${Buffer.byteLength(payload)} bytes)`);
    }
    await this.db.notify(clusterChannel, payload);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  private receive(payload: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return; // Not ours: someone else NOTIFYing on the channel.
    }
    if (envelope.origin === this.origin) return;
    for (const handler of this.handlers.get(envelope.topic) ?? []) {
      try {
        handler(envelope.message);
      } catch (error) {
        console.error(`cluster message handler for ${envelope.topic} failed`, error);
      }
    }
  }
}
