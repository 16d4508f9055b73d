import type { Condition } from '@medplum/fhirtypes';

/** Problem list items of the chart summary (app-spec §3): Conditions in the problem-list-item category. */

export const PROBLEM_LIST_CATEGORY = {
  system: 'http://terminology.hl7.org/CodeSystem/condition-category',
  code: 'problem-list-item',
  display: 'Problem List Item',
} as const;

export const CONDITION_CLINICAL_STATUS_SYSTEM = 'http://terminology.hl7.org/CodeSystem/condition-clinical';

export const CONDITION_CLINICAL_STATUSES = [
  'active',
  'recurrence',
  'relapse',
  'inactive',
  'remission',
  'resolved',
] as const;

/** Clinical statuses of a condition that is still going on: listed first, before past ones. */
export const CURRENT_CONDITION_STATUSES: readonly string[] = ['active', 'recurrence', 'relapse'];

/**
 * Whether a Condition belongs on the Problem List: a problem-list item, an uncategorised one, or a
 * diagnosis made at a visit that is still current. Newer Synthea (and US Core 4+ senders) mark
 * every condition as an encounter diagnosis; leaving those out emptied the list of a patient with
 * heart failure, while the visits' resolved diagnoses (a past sinusitis) are history, not problems.
 */
export function isProblemListEntry(condition: Condition): boolean {
  const codes = (condition.category ?? []).flatMap((category) => category.coding ?? []).map((coding) => coding.code);
  if (codes.length === 0 || codes.includes('problem-list-item')) return true;
  return codes.includes('encounter-diagnosis') && isCurrentCondition(condition);
}

export function isCurrentCondition(condition: Condition): boolean {
  const status = condition.clinicalStatus?.coding?.[0]?.code;
  return status !== undefined && CURRENT_CONDITION_STATUSES.includes(status);
}
