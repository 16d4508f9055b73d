import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { FhirError } from '../fhir/fhirError';
import { answerForStatementTimeout, isStatementTimeout, statementTimeoutError } from './statementTimeoutError';

/** An error as node-postgres reports it from the database. */
function databaseError(code: string, message: string): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
}

// The words a German-speaking server (lc_messages) uses: learnt from the database, not assumed.
const timeout = { milliseconds: 30_000, message: 'storniere Anfrage wegen Zeitüberschreitung der Anweisung' };

describe('isStatementTimeout', () => {
  it("recognises the database's own words for a statement the timeout cancelled", () => {
    expect(isStatementTimeout(databaseError('57014', timeout.message), timeout)).toBe(true);
  });

  it("does not take an administrator's pg_cancel_backend, another error or other words for it", () => {
    expect(isStatementTimeout(databaseError('57014', 'storniere Anfrage wegen Benutzeranforderung'), timeout)).toBe(
      false,
    );
    expect(isStatementTimeout(databaseError('57014', 'canceling statement due to statement timeout'), timeout)).toBe(
      false,
    );
    expect(isStatementTimeout(databaseError('55P03', timeout.message), timeout)).toBe(false);
    expect(isStatementTimeout(new Error(timeout.message), timeout)).toBe(false);
    // A database whose words could not be learnt recognises nothing rather than everything.
    expect(isStatementTimeout(databaseError('57014', ''), { milliseconds: 30_000, message: '' })).toBe(false);
  });
});

describe('statementTimeoutError', () => {
  it('answers 422 too-costly, saying after how long the request was stopped and how to narrow it', () => {
    const error = statementTimeoutError(30_000);
    expect(error.status).toBe(422);
    expect(error.outcome.issue).toHaveLength(1);
    const [issue] = error.outcome.issue!;
    expect(issue).toMatchObject({ severity: 'error', code: 'too-costly' });
    expect(issue.details?.text).toMatch(/^The request was stopped after 30 seconds of database work\. /);
    for (const hint of ['match fewer', '_total=none', '_total=estimate', 'smaller _offset']) {
      expect(issue.details?.text).toContain(hint);
    }
    expect(statementTimeoutError(1000).message).toContain('after 1 second of');
    expect(statementTimeoutError(250).message).toContain('after 0.25 seconds of');
  });

  it('replaces only a statement timeout; any other error goes on unchanged', () => {
    const answered = answerForStatementTimeout(databaseError('57014', timeout.message), timeout);
    expect(answered).toBeInstanceOf(FhirError);
    expect((answered as FhirError).outcome.issue?.[0].details?.text).not.toContain(timeout.message);
    const other = databaseError('57014', 'storniere Anfrage wegen Benutzeranforderung');
    expect(answerForStatementTimeout(other, timeout)).toBe(other);
  });
});
