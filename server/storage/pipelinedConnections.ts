import pg from 'pg';
import type { QueryOptions, SqlExecutor } from './database';
import { pgStatement } from './pgStatement';

/**
 * Whether a statement's error means its connection is gone (the backend ended it, the socket
 * closed), rather than the statement failing on a working connection (which keeps it).
 */
function brokeTheConnection(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return true;
  return error.severity === 'FATAL' || error.severity === 'PANIC' || /^(08|57P)/.test(error.code ?? '');
}

interface Slot {
  client: pg.Client | undefined;
  connecting: Promise<pg.Client> | undefined;
  /** When each statement still waiting for its answer was sent (performance.now()), oldest first. */
  sentAt: number[];
}

/**
 * A few connections on which statements are pipelined (node-postgres `pipeline: true`): each goes to
 * the database at once, behind those still running on its connection, instead of waiting for them
 * to answer. For fhir/readBatcher.ts: a batch of reads by id that arrives while the previous one is
 * at the database no longer waits a whole round trip before it is sent, and the backend, already
 * awake, takes it as soon as it is done with the one before (issue 20, tenth pass).
 *
 * A connection answers in order, so one slow statement (a very large resource) would hold up every
 * statement sent behind it: a statement goes to the first connection whose oldest unanswered
 * statement is younger than `stallMs`, else to the connection with the fewest unanswered ones.
 * Each statement still has its own Sync, so one failing does not fail those around it. A connection
 * that breaks fails the statements it held and is opened again on the next statement.
 */
export class PipelinedConnections implements SqlExecutor {
  private readonly slots: Slot[];
  private closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly options: { connections: number; stallMs: number } = { connections: 2, stallMs: 2 },
  ) {
    this.slots = Array.from({ length: options.connections }, () => ({
      client: undefined,
      connecting: undefined,
      sentAt: [],
    }));
  }

  async query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]> {
    if (this.closed) throw new Error('The database is closed');
    const sent = performance.now();
    const slot = this.pick(sent);
    slot.sentAt.push(sent);
    let client: pg.Client | undefined;
    try {
      client = slot.client ?? (await this.connect(slot));
      const result = await client.query(pgStatement(sql, params, options));
      return result.rows as T[];
    } catch (error) {
      // The connection's own 'end' comes later: the statements sent right after must not go to it.
      if (client && slot.client === client && brokeTheConnection(error)) this.drop(slot, client);
      throw error;
    } finally {
      slot.sentAt.splice(slot.sentAt.indexOf(sent), 1);
    }
  }

  /** How many statements each connection holds unanswered (for tests and diagnostics). */
  unanswered(): number[] {
    return this.slots.map((slot) => slot.sentAt.length);
  }

  private pick(now: number): Slot {
    let fewest = this.slots[0];
    for (const slot of this.slots) {
      if (slot.sentAt.length === 0 || now - slot.sentAt[0] < this.options.stallMs) return slot;
      if (slot.sentAt.length < fewest.sentAt.length) fewest = slot;
    }
    return fewest;
  }

  private connect(slot: Slot): Promise<pg.Client> {
    slot.connecting ??= (async () => {
      const client = new pg.Client({ ...this.config, pipeline: true });
      // A broken connection fails what it held (node-postgres rejects those statements); it is
      // dropped here so that the next statement opens a new one. Unheard, the event would end the process.
      client.on('error', () => this.drop(slot, client));
      client.on('end', () => this.drop(slot, client));
      await client.connect();
      if (this.closed) {
        await client.end();
        throw new Error('The database is closed');
      }
      slot.client = client;
      return client;
    })().finally(() => {
      slot.connecting = undefined;
    });
    return slot.connecting;
  }

  private drop(slot: Slot, client: pg.Client): void {
    if (slot.client === client) slot.client = undefined;
    void client.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.slots.map(async (slot) => {
        const client = slot.client ?? (await slot.connecting?.catch(() => undefined));
        slot.client = undefined;
        await client?.end().catch(() => undefined);
      }),
    );
  }
}
