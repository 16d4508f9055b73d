import { describe, expect, it } from 'vitest';
import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import { createdIds, followUpTask, visitNoteTransaction } from './visitNoteTransaction';
import { pickDraft } from './draftRules';

const patient = { reference: 'Patient/p1' };
const response: QuestionnaireResponse = {
  resourceType: 'QuestionnaireResponse',
  status: 'in-progress',
  questionnaire: 'https://q|1',
};

describe('visit note transaction', () => {
  it('creates a new response and its task, the task focused on the response by its urn', () => {
    const bundle = visitNoteTransaction(response, patient, { reference: 'Practitioner/a' }, '2026-01-01T00:00:00Z');
    expect(bundle.type).toBe('transaction');
    const [note, task] = bundle.entry ?? [];
    expect(note.request).toEqual({ method: 'POST', url: 'QuestionnaireResponse' });
    expect(note.resource).toMatchObject({ status: 'completed', authored: '2026-01-01T00:00:00Z' });
    expect(task.resource).toMatchObject({
      resourceType: 'Task',
      status: 'ready',
      intent: 'order',
      for: patient,
      focus: { reference: note.fullUrl },
      requester: { reference: 'Practitioner/a' },
      code: { text: 'Physician menopause-management note' },
    });
  });

  it('completes a saved draft in place, guarded by its version', () => {
    const bundle = visitNoteTransaction({ ...response, id: 'd1', meta: { versionId: '3' } }, patient, undefined);
    const [note, task] = bundle.entry ?? [];
    expect(note.request).toEqual({ method: 'PUT', url: 'QuestionnaireResponse/d1', ifMatch: 'W/"3"' });
    expect(note.resource?.meta).toBeUndefined();
    expect((task.resource as { focus: unknown }).focus).toEqual({ reference: 'QuestionnaireResponse/d1' });
    expect(followUpTask(patient, { reference: 'x' }, undefined, 'now').requester).toBeUndefined();
  });

  it('reads the created ids from the answer', () => {
    expect(
      createdIds({
        resourceType: 'Bundle',
        type: 'transaction-response',
        entry: [
          { response: { status: '201', location: 'QuestionnaireResponse/r1/_history/1' } },
          { response: { status: '201', location: 'Task/t1/_history/1' } },
        ],
      }),
    ).toEqual({ responseId: 'r1', taskId: 't1' });
  });
});

describe('draft to resume', () => {
  it('is my newest in-progress response to this questionnaire', () => {
    const drafts: QuestionnaireResponse[] = [
      { ...response, id: 'old', meta: { lastUpdated: '2026-01-01' }, author: { reference: 'Practitioner/me' } },
      { ...response, id: 'new', meta: { lastUpdated: '2026-02-01' }, author: { reference: 'Practitioner/me' } },
      { ...response, id: 'theirs', meta: { lastUpdated: '2026-03-01' }, author: { reference: 'Practitioner/other' } },
      { ...response, id: 'done', status: 'completed', meta: { lastUpdated: '2026-04-01' } },
      { ...response, id: 'other-form', questionnaire: 'https://other', meta: { lastUpdated: '2026-05-01' } },
    ];
    expect(pickDraft(drafts, { url: 'https://q' }, 'Practitioner/me')?.id).toBe('new');
    expect(pickDraft(drafts, { url: 'https://nothing' }, 'Practitioner/me')).toBeUndefined();
  });
});
