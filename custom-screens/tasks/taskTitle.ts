import type { Task } from '@medplum/fhirtypes';
import { formatCodeableConcept } from '../../data-provider/formatting';

/** What a task is called in a list: its code, else its description. */
export function taskTitle(task: Task): string {
  return formatCodeableConcept(task.code) || task.description?.trim() || 'Task';
}

/**
 * The description, when it says more than the title: a work list of six "Review lab results" rows
 * differs only by patient unless each also says which lab.
 */
export function taskDetail(task: Task): string | undefined {
  const description = task.description?.trim();
  if (!description) return undefined;
  return description.toLowerCase() === taskTitle(task).toLowerCase() ? undefined : description;
}
