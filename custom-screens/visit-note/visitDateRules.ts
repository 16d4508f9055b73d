import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import { isAfterDay } from '../../data-provider/rules';

/** The visit note's "Date of visit" item (config/questionnaires/soapNoteMenopause.ts). */
export const VISIT_DATE_LINK_ID = 'visit-date';
export const FUTURE_VISIT_DATE_MESSAGE = 'The date of visit cannot be in the future.';

/**
 * Why the response's date of visit cannot be submitted, or undefined. A note records a visit that
 * took place, so the date may not be after today. A partial date (2099, 2099-12) is compared at its
 * own precision: this year or this month is allowed.
 */
export function visitDateProblem(response: QuestionnaireResponse, today: string): string | undefined {
  const date = response.item?.find((item) => item.linkId === VISIT_DATE_LINK_ID)?.answer?.[0]?.valueDate;
  if (!date) return undefined;
  return isAfterDay(date, today) ? FUTURE_VISIT_DATE_MESSAGE : undefined;
}
