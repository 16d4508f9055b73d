import type { Period, Resource } from '@medplum/fhirtypes';
import { formatDate, formatPeriod } from '../../data-provider/formatting';
import { clinicalDateOf } from '../../data-provider/rules';

/** When what a resource records happened (not when it was written down), as stored: the chart's rule. */
export const clinicalDate = clinicalDateOf;

/** Newest first by clinical date, then by last update; what has neither goes last, in the order found. */
export function newestFirst(resources: Resource[]): Resource[] {
  const time = (resource: Resource) => {
    const parsed = Date.parse(clinicalDate(resource) ?? resource.meta?.lastUpdated ?? '');
    return Number.isNaN(parsed) ? -Infinity : parsed;
  };
  return resources
    .map((resource, index) => ({ resource, index, at: time(resource) }))
    .sort((a, b) => (b.at === a.at ? a.index - b.index : b.at > a.at ? 1 : -1))
    .map((item) => item.resource);
}

const datePart = /^\d{4}(?:-\d{2}(?:-\d{2})?)?/;

/** The calendar day a FHIR date or dateTime names, as written (its time and zone left out). */
const dayOf = (value: string | undefined) => (value ? (datePart.exec(value)?.[0] ?? value) : undefined);

/**
 * 'Mar 7, 2020' (or 'Mar 2020', '2020' by precision). The calendar day as its author wrote it:
 * a time's zone is not converted, so the document reads the same wherever the server runs.
 */
export function readableDate(value: string | undefined): string {
  const day = value ? datePart.exec(value)?.[0] : undefined;
  if (!day) return value ?? '';
  return formatDate(day, 'en-US');
}

/** 'Mar 7, 2020 - Apr 2, 2020', or an open end left open ('Mar 7, 2020 -'), by the days alone. */
export function readablePeriod(period: Period | undefined): string {
  return formatPeriod({ start: dayOf(period?.start), end: dayOf(period?.end) }, 'en-US');
}
