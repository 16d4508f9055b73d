import { describe, expect, it } from 'vitest';
import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import {
  answersAsText,
  conflictWith,
  draftWrite,
  isSubmittedResponse,
  isVersionConflict,
  knownDraftAtOpening,
  storedAfterSave,
  submittedAt,
  submittedNoticeTitle,
  submitterReference,
} from './draftConflict';

const answers = (text: string, extra: Partial<QuestionnaireResponse> = {}): QuestionnaireResponse => ({
  resourceType: 'QuestionnaireResponse',
  status: 'in-progress',
  questionnaire: 'https://q',
  item: [{ linkId: 'details', text: 'Details', answer: [{ valueString: text }] }],
  ...extra,
});
const stored = (versionId: string | undefined, extra: Partial<QuestionnaireResponse> = {}) =>
  answers('stored', { id: 'd1', meta: versionId ? { versionId, lastUpdated: '2026-03-02T09:00:00Z' } : {}, ...extra });
const refused = (status: number) =>
  new OperationOutcomeError(
    { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'conflict' }] },
    status,
  );

describe('draftWrite: every draft save is conditional on the version this tab knows', () => {
  it('creates the first draft (no id, no meta sent)', () => {
    expect(draftWrite(answers('a', { id: 'x', meta: { versionId: '9' } }), undefined)).toEqual({
      kind: 'create',
      body: answers('a'),
    });
  });

  it('updates the known draft with If-Match of its version', () => {
    const write = draftWrite(answers('b'), stored('4'));
    expect(write).toEqual({ kind: 'update', body: { ...answers('b'), id: 'd1' }, ifMatch: 'W/"4"' });
  });

  it('always sends an in-progress body', () => {
    const write = draftWrite(answers('b', { status: 'completed' }), stored('4'));
    expect(write.kind === 'update' && write.body.status).toBe('in-progress');
  });

  it('refuses to write without a known version, or over a submitted note', () => {
    expect(draftWrite(answers('b'), stored(undefined))).toEqual({ kind: 'refuse' });
    expect(draftWrite(answers('b'), stored('4', { status: 'completed' }))).toEqual({ kind: 'refuse' });
    expect(draftWrite(answers('b'), stored('4', { status: 'amended' }))).toEqual({ kind: 'refuse' });
  });
});

describe('storedAfterSave', () => {
  it('takes the server answer when it has a version', () => {
    expect(storedAfterSave(stored('5'), stored('4'))).toEqual(stored('5'));
  });
  it('keeps the known version when the server answered without one (304, nothing changed)', () => {
    const answer = answers('same', { id: 'd1' });
    expect(storedAfterSave(answer, stored('4')).meta?.versionId).toBe('4');
  });
});

describe('conflicts', () => {
  it('are 412 and 409 answers, nothing else', () => {
    expect(isVersionConflict(refused(412))).toBe(true);
    expect(isVersionConflict(refused(409))).toBe(true);
    expect(isVersionConflict(refused(400))).toBe(false);
    expect(isVersionConflict(new Error('Failed to fetch'))).toBe(false);
  });

  it('are "submitted" when the latest is completed or amended, else "changed"', () => {
    expect(conflictWith(stored('3', { status: 'completed' })).kind).toBe('submitted');
    expect(conflictWith(stored('3', { status: 'amended' })).kind).toBe('submitted');
    expect(conflictWith(stored('3')).kind).toBe('changed');
    expect(conflictWith(undefined)).toEqual({ kind: 'changed', latest: undefined });
    expect(isSubmittedResponse(stored('3', { status: 'stopped' }))).toBe(false);
  });

  it('name when and by whom a note was submitted', () => {
    const note = stored('3', {
      status: 'completed',
      authored: '2026-03-02T10:00:00Z',
      author: { reference: 'Practitioner/b' },
      meta: { versionId: '3', lastUpdated: '2026-03-02T10:00:01Z', author: { reference: 'Practitioner/a' } },
    });
    expect(submittedAt(note)).toBe('2026-03-02T10:00:00Z');
    expect(submittedAt({ ...note, authored: undefined })).toBe('2026-03-02T10:00:01Z');
    expect(submitterReference(note)).toBe('Practitioner/a');
    expect(submitterReference({ ...note, meta: {} })).toBe('Practitioner/b');
    expect(submittedNoticeTitle('2 Mar 2026, 10:00 AM', 'Alice Carter')).toBe(
      'This visit note was submitted at 2 Mar 2026, 10:00 AM by Alice Carter.',
    );
    expect(submittedNoticeTitle(undefined, undefined)).toBe('This visit note was submitted.');
  });
});

describe('knownDraftAtOpening: restored answers continue the version they were typed on', () => {
  const server = stored('5');
  it('is the server draft when nothing was restored, or the copy continues that very version', () => {
    expect(knownDraftAtOpening(server, false, { id: 'd1', versionId: '4' })).toBe(server);
    expect(knownDraftAtOpening(server, true, { id: 'd1', versionId: '5' })).toBe(server);
    expect(knownDraftAtOpening(undefined, true, undefined)).toBeUndefined();
  });
  it('is the older version when the draft moved on since the copy was typed (its save is then refused)', () => {
    expect(knownDraftAtOpening(server, true, { id: 'd1', versionId: '4' })?.meta?.versionId).toBe('4');
  });
  it('has no version when the copy was not typed on this draft (its save is refused: the clinician chooses)', () => {
    expect(knownDraftAtOpening(server, true, undefined)?.meta?.versionId).toBeUndefined();
    expect(knownDraftAtOpening(server, true, { id: 'other', versionId: '5' })?.meta?.versionId).toBeUndefined();
  });
});

describe('answersAsText', () => {
  it('lists the answered questions, groups indented', () => {
    const response: QuestionnaireResponse = {
      resourceType: 'QuestionnaireResponse',
      status: 'in-progress',
      item: [
        { linkId: 'date', text: 'Date of visit', answer: [{ valueDate: '2026-03-02' }] },
        {
          linkId: 'subjective',
          text: 'Subjective',
          item: [
            { linkId: 'hot', text: 'Hot flashes', answer: [{ valueBoolean: true }] },
            { linkId: 'empty', text: 'Unanswered' },
            {
              linkId: 'history',
              text: 'History',
              answer: [{ valueCoding: { code: 'stroke', display: 'Stroke' } }, { valueString: 'Migraine' }],
            },
          ],
        },
      ],
    };
    expect(answersAsText(response)).toBe(
      'Date of visit: 2026-03-02\nSubjective\n  Hot flashes: Yes\n  History: Stroke, Migraine',
    );
    expect(answersAsText(undefined)).toBe('');
  });
});
