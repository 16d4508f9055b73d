import type { QuestionnaireResponse } from '@medplum/fhirtypes';

/** The visit note's "Date of visit" item (config/questionnaires/soapNoteMenopause.ts). */
export const VISIT_DATE_LINK_ID = 'visit-date';
export const FUTURE_VISIT_DATE_MESSAGE = 'The date of visit cannot be in the future.';

/** Today as a FHIR date in the viewer's zone: a visit dated "today" there is not in the future. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Why the response's date of visit cannot be submitted, or undefined. A note records a visit that
 * took place, so the date may not be after today. A partial date (2099, 2099-12) is compared at its
 * own precision: this year or this month is allowed.
 */
export function visitDateProblem(response: QuestionnaireResponse, today: string): string | undefined {
  const date = response.item?.find((item) => item.linkId === VISIT_DATE_LINK_ID)?.answer?.[0]?.valueDate;
  if (!date) return undefined;
  return date > today.slice(0, date.length) ? FUTURE_VISIT_DATE_MESSAGE : undefined;
}
