import { describe, expect, it } from 'vitest';
import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import {
  isAccountKey,
  openingAnswers,
  parseAnswerBackup,
  taskFillBackupKey,
  visitNoteBackupKey,
  type AnswerBackup,
} from './answerBackupRules';

const questionnaire = { url: 'https://q', id: 'q1' };

function answered(text: string, extra: Partial<QuestionnaireResponse> = {}): QuestionnaireResponse {
  return {
    resourceType: 'QuestionnaireResponse',
    status: 'in-progress',
    questionnaire: 'https://q',
    item: [{ linkId: 'details', answer: [{ valueString: text }] }],
    ...extra,
  };
}

const serverDraft = answered('saved on the server', {
  id: 'd1',
  meta: { versionId: '3', lastUpdated: '2026-03-01T10:00:00.000Z' },
});

describe('answer backup keys', () => {
  it('start with the account, so two accounts of one browser never share one', () => {
    const alice = visitNoteBackupKey('Practitioner/a', 'p1', questionnaire);
    const other = visitNoteBackupKey('Practitioner/ab', 'p1', questionnaire);
    expect(alice).toBe('hearth.questionnaireAnswers.Practitioner/a|Patient/p1|https://q');
    expect(other).not.toBe(alice);
    expect(taskFillBackupKey('Practitioner/a', 't1')).toBe('hearth.questionnaireAnswers.Practitioner/a|Task/t1');
    expect(visitNoteBackupKey('Practitioner/a', 'p1', { id: 'q9' })).toMatch(/\|Questionnaire\/q9$/);
  });

  it("are told apart by account when signing out: a's prefix does not catch ab's keys", () => {
    const prefixes = ['hearth.questionnaireAnswers.', 'hearth.chatDraft.'];
    expect(isAccountKey(taskFillBackupKey('Practitioner/a', 't1'), 'Practitioner/a', prefixes)).toBe(true);
    expect(isAccountKey('hearth.chatDraft.Practitioner/a|Patient/p1', 'Practitioner/a', prefixes)).toBe(true);
    expect(isAccountKey(taskFillBackupKey('Practitioner/ab', 't1'), 'Practitioner/a', prefixes)).toBe(false);
    expect(isAccountKey('hearth.activeLogin', 'Practitioner/a', prefixes)).toBe(false);
  });
});

describe('a stored copy', () => {
  it('is read back, and anything else is no copy', () => {
    const backup: AnswerBackup = { changedAt: '2026-03-01T10:00:00Z', response: answered('x') };
    expect(parseAnswerBackup(JSON.stringify(backup))).toEqual(backup);
    expect(parseAnswerBackup(null)).toBeUndefined();
    expect(parseAnswerBackup('{not json')).toBeUndefined();
    expect(
      parseAnswerBackup(JSON.stringify({ changedAt: 'x', response: { resourceType: 'Patient' } })),
    ).toBeUndefined();
    expect(parseAnswerBackup(JSON.stringify({ ...backup, basis: { versionId: '1' } }))).toBeUndefined();
  });
});

describe('the answers a form opens with', () => {
  it('are the server draft when the browser has no copy', () => {
    expect(openingAnswers(serverDraft, undefined)).toEqual({
      source: 'server',
      response: serverDraft,
      dropBackup: false,
    });
    expect(openingAnswers(undefined, undefined)).toEqual({ source: 'server', response: undefined, dropBackup: false });
  });

  it('are the copy when it continues the very version the server has, whatever the clocks say', () => {
    const backup: AnswerBackup = {
      // A browser clock far behind the server's: versions decide, not times.
      changedAt: '2020-01-01T00:00:00.000Z',
      basis: { id: 'd1', versionId: '3' },
      response: answered('typed after the last save'),
    };
    const opening = openingAnswers(serverDraft, backup);
    expect(opening.source).toBe('browser');
    // Saving it updates the server's draft rather than creating another one.
    expect(opening.response).toMatchObject({ id: 'd1', meta: { versionId: '3' }, item: backup.response.item });
  });

  it('are the copy when the server has no draft (never saved), as a new draft', () => {
    const backup: AnswerBackup = {
      changedAt: '2026-03-01T10:00:00.000Z',
      basis: { id: 'gone', versionId: '1' },
      response: answered('never reached the server', { id: 'gone', meta: { versionId: '1' } }),
    };
    const opening = openingAnswers(undefined, backup);
    expect(opening.source).toBe('browser');
    expect(opening.response?.id).toBeUndefined();
    expect(opening.response?.meta).toBeUndefined();
  });

  it('are the server draft, the copy dropped, when the server already has those answers', () => {
    const backup: AnswerBackup = { changedAt: '2026-03-01T10:00:05.000Z', response: answered('saved on the server') };
    expect(openingAnswers(serverDraft, backup)).toEqual({ source: 'server', response: serverDraft, dropBackup: true });
  });

  it('are the server draft when it was saved (elsewhere) after the copy was typed', () => {
    const backup: AnswerBackup = {
      changedAt: '2026-03-01T09:59:00.000Z',
      basis: { id: 'd1', versionId: '2' },
      response: answered('older, typed in this browser'),
    };
    expect(openingAnswers(serverDraft, backup)).toEqual({ source: 'server', response: serverDraft, dropBackup: true });
  });

  it('are the copy when it was typed after the server draft moved on', () => {
    const backup: AnswerBackup = {
      changedAt: '2026-03-01T10:05:00.000Z',
      basis: { id: 'd1', versionId: '2' },
      response: answered('newer, typed in this browser'),
    };
    expect(openingAnswers(serverDraft, backup).source).toBe('browser');
  });
});
