import { describe, expect, it } from 'vitest';
import type { Task } from '@medplum/fhirtypes';
import { formlessTasksWords, openTaskCounts } from './openTasks';

const task = (status: Task['status'], focus?: string): Task => ({
  resourceType: 'Task',
  status,
  intent: 'order',
  ...(focus ? { focus: { reference: focus } } : {}),
});

describe('open tasks without a form', () => {
  it('counts the open tasks with no focus (those the visit note’s Required actions leaves out)', () => {
    const counts = openTaskCounts(
      [task('ready', 'QuestionnaireResponse/1'), task('ready'), task('completed'), task('on-hold', 'CarePlan/1')],
      100,
    );
    expect(counts).toMatchObject({ open: 3, withoutForm: 1 });
  });

  it('says why the counts differ, in the header and on the Tasks tab', () => {
    expect(formlessTasksWords({ open: 4, overdue: 0, capped: false, withoutForm: 1 })).toEqual({
      header: 'Required actions (Encounter) shows the 3 with a form; 1 more has no form',
      tasksTab:
        "The Encounter tab's Required actions lists only open tasks with a form to act on (3 of 4): " +
        '1 open task without a form is listed here only.',
      requiredActions: '1 more open task has no form',
    });
    expect(formlessTasksWords({ open: 2, overdue: 0, capped: false, withoutForm: 2 })?.header).toBe(
      'None has a form, so Required actions (Encounter) is empty',
    );
    expect(formlessTasksWords({ open: 5, overdue: 0, capped: false, withoutForm: 2 })?.tasksTab).toContain(
      '2 open tasks without a form are listed here only',
    );
    // Under Required actions: "more" only when it lists some.
    expect(formlessTasksWords({ open: 5, overdue: 0, capped: false, withoutForm: 2 })?.requiredActions).toBe(
      '2 more open tasks have no form',
    );
    expect(formlessTasksWords({ open: 1, overdue: 0, capped: false, withoutForm: 1 })?.requiredActions).toBe(
      '1 open task has no form',
    );
  });

  it('says nothing when the counts agree or nothing is open', () => {
    expect(formlessTasksWords({ open: 3, overdue: 0, capped: false, withoutForm: 0 })).toBeUndefined();
    expect(formlessTasksWords({ open: 0, overdue: 0, capped: false, withoutForm: 0 })).toBeUndefined();
    expect(formlessTasksWords(undefined)).toBeUndefined();
  });

  it('says nothing to a reader who cannot open Required actions (the front desk has no Encounter tab)', () => {
    const counts = { open: 4, overdue: 0, capped: false, withoutForm: 1 };
    expect(formlessTasksWords(counts, { seesRequiredActions: false })).toBeUndefined();
    expect(formlessTasksWords(counts, { seesRequiredActions: true })?.header).toBe(
      'Required actions (Encounter) shows the 3 with a form; 1 more has no form',
    );
  });
});
