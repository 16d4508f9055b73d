import { describe, expect, it } from 'vitest';
import type { Task } from '@medplum/fhirtypes';
import { dueDatePatch, notePatch, ownerPatch, performerTypePatch, statusPatch, versionGuard } from './taskPatch';
import { taskActions } from './taskActionRules';
import { noteCitation, notesNewestFirst } from './taskNotes';
import { dueDateState, taskDueState } from './taskDueDate';
import { byDueDate, isForMyRoles, taskPath } from './myTaskRules';
import { answeredQuestions } from '../../src/questionnaire/model';
import { fillTaskTransaction, patchEntry } from './taskTransaction';
import { taskTab } from './taskTabs';

const task = (extra: Partial<Task> = {}): Task => ({
  resourceType: 'Task',
  id: 't1',
  meta: { versionId: '7' },
  status: 'ready',
  intent: 'order',
  ...extra,
});

describe('task patches', () => {
  it('start with a test of the loaded version, and add absent fields / replace present ones', () => {
    expect(versionGuard(task())).toEqual([{ op: 'test', path: '/meta/versionId', value: '7' }]);
    expect(versionGuard(task({ meta: {} }))).toEqual([]);
    expect(statusPatch(task(), 'on-hold')[1]).toEqual({ op: 'replace', path: '/status', value: 'on-hold' });
    const me = { reference: 'Practitioner/p1' };
    expect(ownerPatch(task(), me)[1]).toEqual({ op: 'add', path: '/owner', value: me });
    expect(ownerPatch(task({ owner: { reference: 'Practitioner/p2' } }), me)[1].op).toBe('replace');
    expect(() => ownerPatch(task(), { reference: 'Patient/x' })).toThrow('The owner must be a Practitioner');
  });

  it('append roles and notes to the end of existing lists', () => {
    const role = { code: 'nurse' };
    expect(performerTypePatch(task(), role)[1]).toEqual({
      op: 'add',
      path: '/performerType',
      value: [{ coding: [role], text: 'nurse' }],
    });
    expect(performerTypePatch(task({ performerType: [{ text: 'x' }] }), role)[1].path).toBe('/performerType/-');
    expect(notePatch(task({ note: [{ text: 'a' }] }), { text: 'b' })[1]).toEqual({
      op: 'add',
      path: '/note/-',
      value: { text: 'b' },
    });
    expect(() => notePatch(task(), { text: '   ' })).toThrow('A note needs text');
  });

  it('set the due date creating only the missing levels', () => {
    expect(dueDatePatch(task(), '2030-01-01')[1]).toEqual({
      op: 'add',
      path: '/restriction',
      value: { period: { end: '2030-01-01' } },
    });
    expect(dueDatePatch(task({ restriction: { repetitions: 1 } }), '2030-01-01')[1]).toEqual({
      op: 'add',
      path: '/restriction/period',
      value: { end: '2030-01-01' },
    });
    expect(dueDatePatch(task({ restriction: { period: { start: '2029-01-01' } } }), 'd')[1].op).toBe('add');
    expect(dueDatePatch(task({ restriction: { period: { end: '2029-01-01' } } }), 'd')[1]).toEqual({
      op: 'replace',
      path: '/restriction/period/end',
      value: 'd',
    });
  });

  it('travel in a transaction as a Binary holding the JSON Patch', () => {
    const entry = patchEntry('Task', 't1', statusPatch(task(), 'completed'));
    expect(entry.request).toEqual({ method: 'PATCH', url: 'Task/t1' });
    const data = (entry.resource as { data: string }).data;
    expect(JSON.parse(atob(data))).toEqual(statusPatch(task(), 'completed'));
    const bundle = fillTaskTransaction(task(), { resourceType: 'QuestionnaireResponse', status: 'completed' });
    expect(bundle.entry?.[0].resource).toMatchObject({ basedOn: [{ reference: 'Task/t1' }] });
  });
});

describe('which actions a task offers', () => {
  it('follows status, owner and focus', () => {
    expect(taskActions(task())).toMatchObject({ claim: true, pause: true, resume: false, complete: true, fill: false });
    expect(taskActions(task({ status: 'on-hold', owner: { reference: 'Practitioner/p' } }))).toMatchObject({
      claim: false,
      pause: false,
      resume: true,
    });
    expect(taskActions(task({ status: 'completed' })).complete).toBe(false);
    expect(taskActions(task({ focus: { reference: 'Questionnaire/q' } })).fill).toBe(true);
    expect(taskActions(task({ focus: { reference: 'QuestionnaireResponse/r' } })).review).toBe(true);
    expect(taskActions(task({ focus: { reference: 'QuestionnaireResponse/r' }, status: 'completed' })).review).toBe(
      false,
    );
    expect(taskActions(task({ focus: { reference: 'CarePlan/c' } })).release).toBe(true);
  });

  it('chooses the tab by the last path segment', () => {
    expect(taskTab('notes')).toBe('notes');
    expect(taskTab('timeline/')).toBe('timeline');
    expect(taskTab('')).toBe('details');
    expect(taskTab('whatever')).toBe('details');
    expect(taskTab('fill')).toBe('fill');
  });
});

describe('notes, due dates and work lists', () => {
  it('orders notes newest first and cites author and date', () => {
    const notes = notesNewestFirst([
      { text: 'old', time: '2024-01-01T10:00:00Z' },
      { text: 'undated' },
      { text: 'new', time: '2024-03-01T10:00:00Z', authorReference: { display: 'Dr. A' } },
    ]);
    expect(notes.map((n) => n.text)).toEqual(['new', 'old', 'undated']);
    expect(noteCitation(notes[0])).toBe('Dr. A · 2024-03-01');
    expect(noteCitation(notes[2])).toBe('Unknown author');
  });

  it('never grades a finished task as overdue (or due today): its due date is history', () => {
    const today = new Date(2026, 10, 24, 18, 0);
    for (const status of ['completed', 'cancelled', 'rejected', 'failed', 'entered-in-error']) {
      expect(taskDueState('2020-01-01', status, today)).toBe('finished');
      expect(taskDueState('2026-11-24', status, today)).toBe('finished');
      expect(taskDueState(undefined, status, today)).toBe('none');
    }
    for (const status of ['ready', 'in-progress', 'on-hold', undefined]) {
      expect(taskDueState('2020-01-01', status, today)).toBe('overdue');
    }
  });

  it('grades due dates as calendar days', () => {
    const today = new Date(2026, 10, 24, 18, 0);
    expect(dueDateState(undefined, today)).toBe('none');
    expect(dueDateState('2026-11-23', today)).toBe('overdue');
    expect(dueDateState('2026-11-24T23:00:00Z', today)).toBe('today');
    expect(dueDateState('2026-11-27', today)).toBe('soon');
    expect(dueDateState('2026-12-27', today)).toBe('later');
    const list = [
      task({ id: 'later', restriction: { period: { end: '2026-12-30' } } }),
      task({ id: 'none' }),
      task({ id: 'overdue', restriction: { period: { end: '2026-11-01' } } }),
      task({ id: 'today', restriction: { period: { end: '2026-11-24' } } }),
    ];
    expect(list.sort((a, b) => byDueDate(a, b, today)).map((t) => t.id)).toEqual(['overdue', 'today', 'later', 'none']);
  });

  it('keeps unassigned tasks for my roles or for anyone', () => {
    const doctor = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/practitioner-role', code: 'doctor' }] };
    expect(isForMyRoles(task(), [])).toBe('anyone');
    expect(isForMyRoles(task({ performerType: [doctor] }), [doctor])).toBe('role');
    expect(isForMyRoles(task({ performerType: [{ coding: [{ code: 'doctor' }] }] }), [doctor])).toBe('role');
    expect(isForMyRoles(task({ performerType: [{ coding: [{ code: 'nurse' }] }] }), [doctor])).toBe(false);
    expect(taskPath(task({ for: { reference: 'Patient/p1' } }))).toBe('/Patient/p1/task/t1/details');
    expect(taskPath(task())).toBe('/Task/t1');
  });

  it('reads a response as answered questions in order, nested groups flattened', () => {
    expect(
      answeredQuestions({
        resourceType: 'QuestionnaireResponse',
        status: 'completed',
        item: [
          { linkId: 'a', text: 'Date', answer: [{ valueDate: '2023-10-19' }] },
          {
            linkId: 'g',
            item: [{ linkId: 'b', text: 'Flag', answer: [{ valueBoolean: false }, { valueString: 'x' }] }],
          },
          { linkId: 'c', text: 'Empty' },
        ],
      }),
    ).toEqual([
      { linkId: 'a', question: 'Date', answer: '19 Oct 2023' },
      { linkId: 'b', question: 'Flag', answer: 'No, x' },
    ]);
  });
});
