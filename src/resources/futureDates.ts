import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { isAfterDay } from '../../data-provider/rules';

export const FUTURE_BIRTH_DATE = 'Birth date cannot be in the future';
export const FUTURE_DECEASED_DATE = 'Deceased date cannot be in the future';

/** Types whose `birthDate` is a person's: the chart's New patient form refuses a future one, so the editor does too. */
const BIRTH_DATE_TYPES = new Set(['Patient', 'Person', 'RelatedPerson', 'Practitioner']);

/**
 * Issues for dates of birth and death after `today`. The expression names the element as the form
 * does (`Patient.deceased` for the choice), so the message shows under its field.
 */
export function futureDateIssues(resource: Record<string, unknown>, today: string): OperationOutcomeIssue[] {
  const type = String(resource.resourceType);
  const issues: OperationOutcomeIssue[] = [];
  const future = (value: unknown) => typeof value === 'string' && isAfterDay(value, today);
  if (BIRTH_DATE_TYPES.has(type) && future(resource.birthDate)) {
    issues.push(issue(FUTURE_BIRTH_DATE, `${type}.birthDate`));
  }
  // deceasedDateTime is Patient's, deceasedDate FamilyMemberHistory's; both are a death's date.
  if (future(resource.deceasedDateTime) || future(resource.deceasedDate)) {
    issues.push(issue(FUTURE_DECEASED_DATE, `${type}.deceased`));
  }
  return issues;
}

function issue(text: string, expression: string): OperationOutcomeIssue {
  return { severity: 'error', code: 'invariant', details: { text }, expression: [expression] };
}
