import type { FastifyInstance } from 'fastify';
import type { Database } from '../storage/database';
import { pruneEndedLogins } from './loginPruning';

export interface LoginPruningSweepOptions {
  db: Database;
}

/**
 * How often a process deletes the Logins past their retention. Every sign-in writes one, so a
 * busy server has many to delete; hourly keeps each sweep's share small, and a month's retention
 * makes a sweep's exact time unimportant.
 */
const sweepIntervalMs = 60 * 60 * 1000;

/** Deletes ended Logins on a timer (loginPruning.ts) until the server closes; a failure is logged and retried next time. */
export async function loginPruningSweep(app: FastifyInstance, options: LoginPruningSweepOptions): Promise<void> {
  const sweep = () =>
    pruneEndedLogins(options.db, Date.now()).catch((error: unknown) =>
      console.error('login pruning sweep failed:', error instanceof Error ? error.message : error),
    );
  const sweepTimer = setInterval(() => void sweep(), sweepIntervalMs);
  sweepTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweepTimer);
  });
}
