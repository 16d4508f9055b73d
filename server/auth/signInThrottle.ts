import type { SqlExecutor } from '../storage/database';
import { FhirError, outcomeOf } from '../fhir/fhirError';

/**
 * Brute-force protection for password sign-in, kept in the database so that every server process
 * sees the same counts. Keys are per account (`email:…`) and per address (`ip:…`).
 */
export interface ThrottleRule {
  /** Failures within `windowMs` before answers are slowed down. */
  slowAfter: number;
  /** Failures within `windowMs` before the key is refused for `lockMs`. */
  lockAfter: number;
  windowMs: number;
  lockMs: number;
}

export const accountThrottle: ThrottleRule = {
  slowAfter: 3,
  lockAfter: 10,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
};
// Many people may share one address (a clinic behind one NAT): a looser rule.
export const addressThrottle: ThrottleRule = {
  slowAfter: 20,
  lockAfter: 100,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
};

const maxDelayMs = 2_000;

function lockedError(until: Date): FhirError {
  const minutes = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 60_000));
  return new FhirError(
    429,
    outcomeOf([
      {
        severity: 'error',
        code: 'throttled',
        details: {
          text: `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        },
      },
    ]),
  );
}

interface ThrottleRow {
  failures: number;
  first_failure: Date | string;
  locked_until: Date | string | null;
}

/** Refuses (429) when a key is locked; otherwise waits the slow-down delay its failures earned. */
export async function checkThrottle(db: SqlExecutor, keys: [string, ThrottleRule][]): Promise<void> {
  let delay = 0;
  for (const [key, rule] of keys) {
    const rows = await db.query<ThrottleRow>(
      'SELECT failures, first_failure, locked_until FROM auth_throttle WHERE key = $1',
      [key],
    );
    const row = rows[0];
    if (!row) continue;
    if (row.locked_until && new Date(row.locked_until).getTime() > Date.now())
      throw lockedError(new Date(row.locked_until));
    if (Date.now() - new Date(row.first_failure).getTime() > rule.windowMs) continue;
    if (row.failures >= rule.slowAfter)
      delay = Math.max(delay, Math.min(maxDelayMs, 250 * (row.failures - rule.slowAfter + 1)));
  }
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
}

/** Counts a failure against each key, locking those that reach their limit. */
export async function recordFailure(db: SqlExecutor, keys: [string, ThrottleRule][]): Promise<void> {
  for (const [key, rule] of keys) {
    await db.query(
      `INSERT INTO auth_throttle (key, failures, first_failure) VALUES ($1, 1, now())
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN auth_throttle.first_failure < now() - make_interval(secs => $2) THEN 1 ELSE auth_throttle.failures + 1 END,
         first_failure = CASE WHEN auth_throttle.first_failure < now() - make_interval(secs => $2) THEN now() ELSE auth_throttle.first_failure END,
         locked_until = CASE WHEN auth_throttle.first_failure >= now() - make_interval(secs => $2) AND auth_throttle.failures + 1 >= $3
           THEN now() + make_interval(secs => $4) ELSE auth_throttle.locked_until END`,
      [key, rule.windowMs / 1000, rule.lockAfter, rule.lockMs / 1000],
    );
  }
}

/** A successful sign-in clears the account's count (not the address's: one success proves little about the others). */
export async function clearFailures(db: SqlExecutor, key: string): Promise<void> {
  await db.query('DELETE FROM auth_throttle WHERE key = $1', [key]);
}
