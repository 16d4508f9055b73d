import type { OperationOutcomeIssue } from '@medplum/fhirtypes';

export const FUTURE_BIRTH_DATE = 'Birth date cannot be in the future';
export const FUTURE_DECEASED_DATE = 'Deceased date cannot be in the future';

/** Types whose `birthDate` is a person's: the chart's New patient form refuses a future one, so the editor does too. */
const BIRTH_DATE_TYPES = new Set(['Patient', 'Person', 'RelatedPerson', 'Practitioner']);

/** Today as a FHIR date in the viewer's zone: someone born "today" there is not born in the future. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Whether a date or dateTime lies after `today` (YYYY-MM-DD). A partial date is compared at its
 * own precision, so "2040" and "2040-01" are future while this year and this month are not. A
 * dateTime with a time counts by its local date (an instant written in UTC can fall on another
 * day locally). Text that is no date is not judged here: the format rules report it.
 */
export function isAfterToday(value: string, today: string): boolean {
  if (/^\d{4}(-\d{2}(-\d{2})?)?$/.test(value)) return value > today.slice(0, value.length);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return false;
  const instant = new Date(value);
  return !Number.isNaN(instant.getTime()) && localToday(instant) > today;
}

/**
 * Issues for dates of birth and death after `today`. The expression names the element as the form
 * does (`Patient.deceased` for the choice), so the message shows under its field.
 */
export function futureDateIssues(resource: Record<string, unknown>, today: string): OperationOutcomeIssue[] {
  const type = String(resource.resourceType);
  const issues: OperationOutcomeIssue[] = [];
  const future = (value: unknown) => typeof value === 'string' && isAfterToday(value, today);
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
