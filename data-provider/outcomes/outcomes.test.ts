import type { OperationOutcome } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import {
  accepted,
  allOk,
  badRequest,
  created,
  FAILURE_OUTCOME_IDS,
  forbidden,
  isAccepted,
  isCreated,
  isNotFound,
  isNotModified,
  isOk,
  isOperationOutcome,
  isSuccessOutcome,
  isUnauthorized,
  normalizeErrorString,
  normalizeOperationOutcome,
  notFound,
  notModified,
  OperationOutcomeError,
  operationOutcomeToString,
  OutcomeId,
  serverError,
  statusOfOutcome,
  structureError,
  SUCCESS_OUTCOME_IDS,
  tokenExpired,
  unauthorized,
  wrongAudience,
} from './index';

describe('outcome ids (spec §4)', () => {
  it('names the success and failure ids', () => {
    expect(SUCCESS_OUTCOME_IDS).toEqual(['ok', 'created', 'not-modified', 'accepted']);
    expect(FAILURE_OUTCOME_IDS).toEqual(['not-found', 'unauthorized']);
    expect(OutcomeId.notModified).toBe('not-modified');
  });

  it('success outcomes carry their id and count as success', () => {
    expect(isOk(allOk())).toBe(true);
    expect(isCreated(created())).toBe(true);
    expect(isNotModified(notModified())).toBe(true);
    expect(isAccepted(accepted('http://x/status'))).toBe(true);
    for (const outcome of [allOk(), created(), notModified(), accepted()]) {
      expect(isSuccessOutcome(outcome)).toBe(true);
    }
  });

  it('failure outcomes are not success', () => {
    for (const outcome of [notFound(), unauthorized(), badRequest('x'), serverError('boom')]) {
      expect(isSuccessOutcome(outcome)).toBe(false);
      expect(isOk(outcome)).toBe(false);
    }
  });

  it('predicates tell the ids apart', () => {
    expect(isCreated(allOk())).toBe(false);
    expect(isOk(created())).toBe(false);
    expect(isNotFound(unauthorized())).toBe(false);
    expect(isUnauthorized(notFound())).toBe(false);
  });

  it('recognises not-found and unauthorized by issue code when the id is missing', () => {
    const fromServer: OperationOutcome = {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'not-found', details: { text: 'Not found' } }],
    };
    expect(isNotFound(fromServer)).toBe(true);
    expect(isUnauthorized({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'login' }] })).toBe(
      true,
    );
  });

  it('isOperationOutcome checks the resource type', () => {
    expect(isOperationOutcome(notFound())).toBe(true);
    expect(isOperationOutcome({ resourceType: 'Patient' })).toBe(false);
    expect(isOperationOutcome(null)).toBe(false);
    expect(isOperationOutcome('OperationOutcome')).toBe(false);
  });
});

describe('error catalogue (spec §8)', () => {
  it('not found: error / not-found / "Not found"', () => {
    expect(notFound().issue[0]).toMatchObject({ severity: 'error', code: 'not-found', details: { text: 'Not found' } });
    expect(notFound().id).toBe('not-found');
  });

  it('unauthorized: login / "Unauthorized"', () => {
    expect(unauthorized().issue[0]).toMatchObject({ code: 'login', details: { text: 'Unauthorized' } });
  });

  it('token expired: login plus expired', () => {
    const issue = tokenExpired().issue[0];
    expect(issue.code).toBe('login');
    expect(issue.details?.coding?.[0]?.code).toBe('expired');
    expect(issue.details?.text).toBe('Token expired');
    expect(isUnauthorized(tokenExpired())).toBe(true);
  });

  it('wrong audience: login plus invalid, "token not issued for this audience"', () => {
    const issue = wrongAudience().issue[0];
    expect(issue.code).toBe('login');
    expect(issue.details?.coding?.[0]?.code).toBe('invalid');
    expect(issue.details?.text).toBe('token not issued for this audience');
  });

  it('invalid and structure carry the custom message and expression', () => {
    expect(badRequest('Missing name', 'Patient.name').issue[0]).toMatchObject({
      code: 'invalid',
      details: { text: 'Missing name' },
      expression: ['Patient.name'],
    });
    expect(badRequest('No where').issue[0].expression).toBeUndefined();
    expect(structureError('Bad JSON').issue[0]).toMatchObject({ code: 'structure', details: { text: 'Bad JSON' } });
  });

  it('internal: exception with diagnostics', () => {
    const issue = serverError(new Error('disk full')).issue[0];
    expect(issue).toMatchObject({ severity: 'error', code: 'exception', diagnostics: 'disk full' });
    expect(issue.details).toBeUndefined();
  });
});

describe('operationOutcomeToString / normalizeErrorString', () => {
  it('joins issues with "; ", prefers details.text, then diagnostics, appends expressions', () => {
    const outcome: OperationOutcome = {
      resourceType: 'OperationOutcome',
      issue: [
        { severity: 'error', code: 'invalid', details: { text: 'Missing family' }, diagnostics: 'ignored' },
        { severity: 'error', code: 'invalid', diagnostics: 'Bad date', expression: ['Patient.birthDate'] },
        { severity: 'error', code: 'invalid', details: { text: 'Two places' }, expression: ['A.b', 'A.c'] },
      ],
    };
    expect(operationOutcomeToString(outcome)).toBe(
      'Missing family; Bad date (Patient.birthDate); Two places (A.b, A.c)',
    );
  });

  it('falls back to "Unknown error"', () => {
    expect(operationOutcomeToString({ resourceType: 'OperationOutcome', issue: [] })).toBe('Unknown error');
    expect(
      operationOutcomeToString({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid' }] }),
    ).toBe('Unknown error');
    expect(normalizeErrorString(undefined)).toBe('Unknown error');
    expect(normalizeErrorString(null)).toBe('Unknown error');
    expect(normalizeErrorString('')).toBe('Unknown error');
  });

  it('normalizes strings, errors, outcomes and OAuth error bodies', () => {
    expect(normalizeErrorString('plain')).toBe('plain');
    expect(normalizeErrorString(new Error('boom'))).toBe('boom');
    expect(normalizeErrorString(notFound())).toBe('Not found');
    expect(normalizeErrorString({ error: 'invalid_grant', error_description: 'Code expired' })).toBe('Code expired');
    expect(normalizeErrorString({ error: 'invalid_grant' })).toBe('invalid_grant');
    expect(normalizeErrorString({ message: 'm' })).toBe('m');
    expect(normalizeErrorString({ other: 1 })).toBe('{"other":1}');
    expect(normalizeErrorString(42)).toBe('42');
  });

  it('normalizeOperationOutcome keeps outcomes and wraps the rest', () => {
    const outcome = notFound();
    expect(normalizeOperationOutcome(outcome)).toBe(outcome);
    expect(normalizeOperationOutcome(new OperationOutcomeError(outcome))).toBe(outcome);
    expect(normalizeOperationOutcome(new Error('boom')).issue[0]).toMatchObject({
      code: 'exception',
      diagnostics: 'boom',
    });
  });
});

describe('OperationOutcomeError', () => {
  it('is an Error carrying the outcome, the status and the joined message', () => {
    const error = new OperationOutcomeError(badRequest('Bad', 'X.y'), 422);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('OperationOutcomeError');
    expect(error.message).toBe('Bad (X.y)');
    expect(error.status).toBe(422);
    expect(error.outcome.issue[0].code).toBe('invalid');
  });

  it('derives the status from the outcome when none is given', () => {
    expect(new OperationOutcomeError(notFound()).status).toBe(404);
    expect(new OperationOutcomeError(unauthorized()).status).toBe(401);
    expect(new OperationOutcomeError(badRequest('x')).status).toBe(400);
    expect(new OperationOutcomeError(forbidden()).status).toBe(403);
    expect(new OperationOutcomeError(serverError('x')).status).toBe(500);
  });

  it('keeps the cause', () => {
    const cause = new Error('root');
    expect(new OperationOutcomeError(serverError(cause), 500, { cause }).cause).toBe(cause);
  });
});

describe('statusOfOutcome', () => {
  it('maps success ids and issue codes to statuses', () => {
    expect(statusOfOutcome(allOk())).toBe(200);
    expect(statusOfOutcome(created())).toBe(201);
    expect(statusOfOutcome(accepted())).toBe(202);
    expect(statusOfOutcome(notModified())).toBe(304);
    const withCode = (code: string): OperationOutcome => ({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: code as 'invalid' }],
    });
    expect(statusOfOutcome(withCode('deleted'))).toBe(410);
    expect(statusOfOutcome(withCode('conflict'))).toBe(409);
    expect(statusOfOutcome(withCode('throttled'))).toBe(429);
    expect(statusOfOutcome(withCode('business-rule'))).toBe(422);
    expect(statusOfOutcome(withCode('something-else'))).toBe(400);
    expect(statusOfOutcome({ resourceType: 'OperationOutcome', issue: [] })).toBe(500);
  });
});
