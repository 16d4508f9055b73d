import type { Condition, Patient, Reference } from '@medplum/fhirtypes';
import { CONDITION_CLINICAL_STATUS_SYSTEM, PROBLEM_LIST_CATEGORY } from '../../../../config/clinical/problemList';
import { formatCodeableConcept } from '../../../../data-provider/formatting';
import { chosenConceptOf, conceptToSave, type ChosenConcept } from './conceptText';
import type { FieldErrors } from './draftErrors';
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
export const PROBLEM_REQUIRED = 'Problem is required';

export function problemDraftOf(condition: Condition | undefined): ProblemDraft {
  return {
    problem: condition ? formatCodeableConcept(condition.code) : '',
    problemConcept: chosenConceptOf(condition?.code),
    clinicalStatus: condition?.clinicalStatus?.coding?.[0]?.code ?? 'active',
    onset: onsetDayOf(condition),
  };
}

export function validateProblem(draft: ProblemDraft): FieldErrors<keyof ProblemDraft> {
  return {
    problem: draft.problem.trim() ? undefined : PROBLEM_REQUIRED,
    onset: draft.onset.trim() ? undefined : DX_DATE_REQUIRED,
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
