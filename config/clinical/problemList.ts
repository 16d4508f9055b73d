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
