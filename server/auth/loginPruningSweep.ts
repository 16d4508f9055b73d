import type { FastifyInstance } from 'fastify';
import { startPeriodicSweep } from '../periodicSweep';
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

/** The first sweep: a few minutes after start (periodicSweep.ts says why not an hour, nor at once). */
const firstSweepAfterMs = 2 * 60 * 1000;

/** Deletes ended Logins on a timer (loginPruning.ts) until the server closes; a failure is logged and retried next time. */
export async function loginPruningSweep(app: FastifyInstance, options: LoginPruningSweepOptions): Promise<void> {
  startPeriodicSweep(app, (signal) => pruneEndedLogins(options.db, Date.now(), { signal }), {
    name: 'login pruning sweep',
    intervalMs: sweepIntervalMs,
    firstAfterMs: firstSweepAfterMs,
  });
}
