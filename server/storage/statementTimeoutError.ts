import pg from 'pg';
import { errors, type FhirError } from '../fhir/fhirError';

/**
 * The statement timeout the server's connections run with, and how the database words a statement
 * it cancelled because of it. A statement cancelled by the timeout and one cancelled by an
 * administrator (pg_cancel_backend) share SQLSTATE 57014: only the message tells them apart, and
 * PostgreSQL translates messages into its lc_messages, so the words are learnt from the database.
 */
export interface StatementTimeout {
  /** In force on the connections (a URL's own options or a role's setting included); 0: none. */
  milliseconds: number;
  /** The message of a statement cancelled by the timeout, in the database's language. */
  message: string;
}

/**
 * Reads the timeout in force on `client` (one of the pool's, so with its startup options) and has
 * the database cancel one sleep of its own to hear its words (a few milliseconds, once per start).
 */
export async function learnStatementTimeout(client: pg.ClientBase): Promise<StatementTimeout> {
  const { rows } = await client.query<{ setting: string }>(
    `SELECT setting FROM pg_settings WHERE name = 'statement_timeout'`,
  );
  let message = '';
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL statement_timeout = 1');
    await client.query('SELECT pg_sleep(1)');
  } catch (error) {
    if (!(error instanceof pg.DatabaseError) || error.code !== '57014') throw error;
    message = error.message;
  } finally {
    await client.query('ROLLBACK');
  }
  return { milliseconds: Number(rows[0]?.setting ?? 0), message };
}

/** Whether `error` is a statement the database cancelled because it ran past the statement timeout. */
export function isStatementTimeout(error: unknown, timeout: StatementTimeout): boolean {
  return (
    error instanceof pg.DatabaseError &&
    error.code === '57014' &&
    timeout.message !== '' &&
    error.message === timeout.message
  );
}

/** The answer to a request whose statement the timeout cancelled: what happened and how to ask for less. */
export function statementTimeoutError(milliseconds: number): FhirError {
  const seconds = milliseconds / 1000;
  return errors.tooCostly(
    `The request was stopped after ${seconds} ${seconds === 1 ? 'second' : 'seconds'} of database work. ` +
      'Narrow it: search parameters that match fewer resources, _total=none or _total=estimate instead of ' +
      '_total=accurate, a smaller _offset, or fewer _include and _revinclude.',
  );
}

/** `error` as the client should see it: the too-costly outcome for a statement timeout, else unchanged. */
export function answerForStatementTimeout(error: unknown, timeout: StatementTimeout): unknown {
  return isStatementTimeout(error, timeout) ? statementTimeoutError(timeout.milliseconds) : error;
}
