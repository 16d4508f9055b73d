import type { Period } from '@medplum/fhirtypes';

import { formatDateTime } from './formatDate';

/**
 * 'Mar 7, 2020, 2:30 PM - Mar 8, 2020, 9:00 AM'. An open end stays visibly open ('Mar 7, 2020 -'),
 * because FHIR reads a missing end as 'still going on', not as 'unknown'.
 */
export function formatPeriod(
  period: Period | undefined,
  locale?: string,
  options?: Intl.DateTimeFormatOptions,
): string {
  const start = formatDateTime(period?.start, locale, options);
  const end = formatDateTime(period?.end, locale, options);
  if (!start && !end) return '';
  return `${start} - ${end}`.trim();
}
