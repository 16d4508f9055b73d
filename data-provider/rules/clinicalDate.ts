import type { Resource } from '@medplum/fhirtypes';

type Json = Record<string, unknown>;

/**
 * Where each kind of record says when it happened, most telling first: an observation when it was
 * measured, a procedure when it was done, a condition when it began (else when it was recorded), a
 * visit when it started, an immunization when it was given, … Imported records carry these rather
 * than the `effectiveDateTime` / `issued` / `authoredOn` / `date` a list looked for. Shared by the
 * chart's lists and the server's patient summary document, so both date a record alike.
 */
const CLINICAL_DATE_PATHS: readonly (readonly string[])[] = [
  ['effectiveDateTime'],
  ['effectivePeriod', 'start'],
  ['effectiveInstant'],
  ['occurrenceDateTime'],
  ['occurrencePeriod', 'start'],
  ['performedDateTime'],
  ['performedPeriod', 'start'],
  ['timingDateTime'],
  ['timingPeriod', 'start'],
  ['onsetDateTime'],
  ['onsetPeriod', 'start'],
  ['period', 'start'],
  ['started'],
  ['issued'],
  ['authoredOn'],
  ['date'],
  ['recordedDate'],
  ['recorded'],
  ['recordedOn'],
  ['dateAsserted'],
  ['created'],
  ['sent'],
  ['billablePeriod', 'start'],
];

/** The FHIR date or dateTime a record is about; undefined when it has none. */
export function clinicalDateOf(resource: Resource): string | undefined {
  for (const path of CLINICAL_DATE_PATHS) {
    const value = path.reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined),
      resource,
    );
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}
