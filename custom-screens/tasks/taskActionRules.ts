import type { Reference, Task } from '@medplum/fhirtypes';
import { isClosedTaskStatus } from '../../config/clinical/taskStatus';

/** Which actions the panel offers for a task (app-spec §4). */
export interface TaskActionAvailability {
  claim: boolean;
  pause: boolean;
  resume: boolean;
  complete: boolean;
  /** The focus is a QuestionnaireResponse or DiagnosticReport to read and sign off. */
  review: boolean;
  /** The focus is a Questionnaire to fill in for the patient. */
  fill: boolean;
  /** The focus is a CarePlan or a request to hand over to the patient. */
  release: boolean;
}

export function focusType(task: Task): string | undefined {
  return task.focus?.reference?.split('/')[0];
}

export function taskActions(task: Task): TaskActionAvailability {
  const open = !isClosedTaskStatus(task.status);
  const type = focusType(task);
  return {
    claim: !task.owner,
    pause: task.status !== 'on-hold',
    resume: task.status === 'on-hold',
    complete: task.status !== 'completed',
    review: open && (type === 'QuestionnaireResponse' || type === 'DiagnosticReport'),
    fill: open && type === 'Questionnaire',
    release: open && type === 'CarePlan',
  };
}

/** The signed-in user may claim only as a Practitioner (the owner must reference one, app-spec §5). */
export function canOwn(profile: Reference | undefined): boolean {
  return !!profile?.reference?.startsWith('Practitioner/');
}
