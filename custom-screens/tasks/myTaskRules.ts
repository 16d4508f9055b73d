import type { CodeableConcept, Coding, Task } from '@medplum/fhirtypes';
import { dueDateState } from './taskDueDate';

/** Statuses of work still to do (app-spec §4's list, plus the request states a task starts in). */
export const OPEN_TASK_STATUSES = [
  'draft',
  'requested',
  'received',
  'accepted',
  'ready',
  'in-progress',
  'on-hold',
] as const;

const codingKey = (coding: Coding) => `${coding.system ?? ''}|${coding.code ?? ''}`;

/** An unassigned task is for me when it names none of the roles, or one of mine. */
export function isForMyRoles(task: Task, myRoles: readonly CodeableConcept[]): 'role' | 'anyone' | false {
  const wanted = (task.performerType ?? []).flatMap((concept) => concept.coding ?? []);
  if (wanted.length === 0) return 'anyone';
  const mine = new Set(myRoles.flatMap((concept) => concept.coding ?? []).map(codingKey));
  const codes = new Set(myRoles.flatMap((concept) => concept.coding ?? []).map((coding) => coding.code));
  // A role picked from the value set may come without a system: the code alone then decides.
  return wanted.some((coding) => mine.has(codingKey(coding)) || (!coding.system && codes.has(coding.code)))
    ? 'role'
    : false;
}

const urgency = { overdue: 0, today: 1, soon: 2, later: 3, none: 4 } as const;

/** Overdue first, then by due date, then undated by when they were written (oldest first). */
export function byDueDate(a: Task, b: Task, today = new Date()): number {
  const ua = urgency[dueDateState(a.restriction?.period?.end, today)];
  const ub = urgency[dueDateState(b.restriction?.period?.end, today)];
  if (ua !== ub) return ua - ub;
  const da = a.restriction?.period?.end ?? '';
  const db = b.restriction?.period?.end ?? '';
  if (da !== db) return da < db ? -1 : 1;
  return (a.authoredOn ?? a.meta?.lastUpdated ?? '').localeCompare(b.authoredOn ?? b.meta?.lastUpdated ?? '');
}

/** Where a task opens: inside its patient's chart when it is for a patient. */
export function taskPath(task: Task): string {
  const patient = task.for?.reference?.startsWith('Patient/') ? task.for.reference.slice('Patient/'.length) : undefined;
  return patient ? `/Patient/${patient}/task/${task.id}/details` : `/Task/${task.id}`;
}
