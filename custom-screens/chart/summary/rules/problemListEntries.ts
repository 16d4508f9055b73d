import type { Condition } from '@medplum/fhirtypes';
import { CURRENT_CONDITION_STATUSES } from '../../../../config/clinical/problemList';

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
