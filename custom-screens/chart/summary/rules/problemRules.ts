import type { Condition, Patient, Reference } from '@medplum/fhirtypes';
import { CONDITION_CLINICAL_STATUS_SYSTEM, PROBLEM_LIST_CATEGORY } from '../../../../config/clinical/problemList';
import { formatCodeableConcept } from '../../../../data-provider/formatting';
import { chosenConceptOf, conceptToSave, type ChosenConcept } from './conceptText';
import type { FieldErrors } from './draftErrors';
import { isAfterDay, localDay } from '../../../../data-provider/rules';
import { onsetDayOf, onsetToSave, withoutOnset } from './onsetDates';

export interface ProblemDraft {
  problem: string;
  /** The coded concept the name stands for (a chosen suggestion, or the edited problem's own). */
  problemConcept?: ChosenConcept;
  clinicalStatus: string;
  /** Diagnosis date (yyyy-mm-dd), required (app-spec §5). */
  onset: string;
}

export const DX_DATE_REQUIRED = 'Dx Date is required';
export const DX_DATE_IN_FUTURE = 'Dx Date cannot be in the future';
export const PROBLEM_REQUIRED = 'Problem is required';

/**
 * The form's draft: the edited problem's values, or a new problem diagnosed today (the required Dx
 * Date starts filled, as most problems are recorded the day they are found; still editable). An
 * edited problem without an onset stays without one: today would claim a diagnosis date nobody gave.
 */
export function problemDraftOf(condition: Condition | undefined, today: string = localDay()): ProblemDraft {
  return {
    problem: condition ? formatCodeableConcept(condition.code) : '',
    problemConcept: chosenConceptOf(condition?.code),
    clinicalStatus: condition?.clinicalStatus?.coding?.[0]?.code ?? 'active',
    onset: condition ? onsetDayOf(condition) : today,
  };
}

/** `today` (yyyy-mm-dd) is the viewer's, injectable for tests. */
export function validateProblem(draft: ProblemDraft, today: string = localDay()): FieldErrors<keyof ProblemDraft> {
  return {
    problem: draft.problem.trim() ? undefined : PROBLEM_REQUIRED,
    onset: !draft.onset.trim() ? DX_DATE_REQUIRED : isAfterDay(draft.onset, today) ? DX_DATE_IN_FUTURE : undefined,
  };
}

/** The Condition to save: the edited one with the draft's values, or a new problem-list item. */
export function buildCondition(draft: ProblemDraft, patient: Reference<Patient>, existing?: Condition): Condition {
  return {
    ...(existing && withoutOnset(existing)),
    resourceType: 'Condition',
    subject: existing?.subject ?? patient,
    category: existing?.category?.length ? existing.category : [{ coding: [{ ...PROBLEM_LIST_CATEGORY }] }],
    code: conceptToSave(draft.problem, draft.problemConcept),
    clinicalStatus: { coding: [{ system: CONDITION_CLINICAL_STATUS_SYSTEM, code: draft.clinicalStatus }] },
    ...onsetToSave(draft.onset, existing),
  };
}
