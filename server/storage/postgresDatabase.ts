import pg from 'pg';
import type { Database, QueryOptions, SqlExecutor } from './database';
import { pgStatement } from './pgStatement';
import { PipelinedConnections } from './pipelinedConnections';
import { connectionConfig, serverSessionSettings, statementTimeoutSettings } from './sessionSettings';
import { answerForStatementTimeout, learnStatementTimeout, type StatementTimeout } from './statementTimeoutError';

// Return timestamps as text so that both backends hand the same shapes to the repository.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => value);

function openPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  // An idle pooled connection the server ends (restart, failover, pg_terminate_backend) is reported
  // on the pool; unheard, that event would crash the process. The pool drops the connection and
  // opens a new one on the next query.
  pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
  return pool;
}

/** Statements on a pool (any free connection) or on one client (a transaction's). */
function executorOn(target: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    async query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]> {
      const result = await target.query(pgStatement(sql, params, options));
      return result.rows as T[];
    },
  };
}

/** `executor`, with a statement the timeout cancelled coming out as the request's too-costly answer. */
function answeringTimeouts(executor: SqlExecutor, timeout: StatementTimeout): SqlExecutor {
  return {
    async query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]> {
      try {
        return await executor.query<T>(sql, params, options);
      } catch (error) {
        throw answerForStatementTimeout(error, timeout);
      }
    },
  };
}

export interface PostgresOptions {
  /** The request connections' statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS); 0 or unset: none of the server's. */
  statementTimeoutMs?: number;
}

export async function openPostgresDatabase(connectionString: string, options: PostgresOptions = {}): Promise<Database> {
  const settings = { ...serverSessionSettings, ...statementTimeoutSettings(options.statementTimeoutMs ?? 0) };
  const pool = openPool({ ...connectionConfig(connectionString, settings), max: 10 });
  // Fail at start-up, not on the first request, when the server is unreachable.
  const probe = await pool.connect();
  const timeout = await learnStatementTimeout(probe).finally(() => probe.release());
  const listeners = new ListenConnection(connectionString);
  // For fhir/readBatcher.ts: batches of reads by id, pipelined on two connections of their own.
  const keyLookups = new PipelinedConnections(
    connectionConfig(connectionString, { ...settings, plan_cache_mode: 'force_generic_plan' }),
  );

  return {
    kind: 'postgres',
    query: answeringTimeouts(executorOn(pool), timeout).query,
    keyLookups: answeringTimeouts(keyLookups, timeout),
    async exec(sql: string): Promise<void> {
      // Maintenance only (migrations, ANALYZE): on a large database one statement of it may take
      // minutes, so it runs without the timeout, on a connection that gets its own back afterwards.
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('SET statement_timeout = 0');
        await client.query(sql);
      } finally {
        // RESET: the value of the connection's startup options (a URL's own included).
        await client.query('RESET statement_timeout').catch((error: Error) => (broken = error));
        client.release(broken);
      }
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(answeringTimeouts(executorOn(client), timeout));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw answerForStatementTimeout(error, timeout);
      } finally {
        client.release();
      }
    },
    listen: (channel, handler) => listeners.listen(channel, handler),
    async notify(channel: string, payload: string): Promise<void> {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {
      await listeners.close();
      await Promise.all([pool.end(), keyLookups.close()]);
    },
  };
}

/**
 * LISTEN needs a connection of its own that stays open (a pooled one would be handed to queries).
 * It is opened on the first listen and opened again, with every channel, after it breaks.
 */
class ListenConnection {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(private readonly connectionString: string) {}

  async listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
    const client = await this.connect();
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size > 0 || this.handlers.get(channel) !== set) return;
      this.handlers.delete(channel);
      await this.client?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
    };
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString });
      client.on('notification', (message) => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      client.on('error', () => this.reconnect(client));
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      this.client = client;
      this.connecting = undefined;
      return client;
    })().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private reconnect(broken: pg.Client): void {
    if (this.client !== broken || this.closed) return;
    this.client = undefined;
    void broken.end().catch(() => undefined);
    const retry = () => {
      if (this.closed || this.client) return;
      this.connect().catch(() => setTimeout(retry, 1000).unref());
    };
    retry();
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
