import type { AllergyIntolerance, Condition } from '@medplum/fhirtypes';

/** A problem or an allergy: both say when they began in `onset[x]` and when they were recorded. */
type WithOnset = Pick<
  Condition | AllergyIntolerance,
  'onsetDateTime' | 'onsetPeriod' | 'onsetAge' | 'onsetRange' | 'onsetString' | 'recordedDate'
>;

const ONSET_FIELDS = ['onsetDateTime', 'onsetPeriod', 'onsetAge', 'onsetRange', 'onsetString'] as const;

/**
 * When it began, as a FHIR date or dateTime: `onsetDateTime`, else the start of `onsetPeriod`
 * (other systems — and Synthea for some records — give a period rather than a moment).
 */
export function onsetOf(entry: WithOnset | undefined): string | undefined {
  return entry?.onsetDateTime || entry?.onsetPeriod?.start || undefined;
}

/** The day of the onset for the form's date field (yyyy-mm-dd), or '' when it has none. */
export function onsetDayOf(entry: WithOnset | undefined): string {
  return onsetOf(entry)?.slice(0, 10) ?? '';
}

/**
 * What the list shows under an entry's name: when it began, else — many imported records carry
 * only that — when it was recorded, said as such so that it is not mistaken for the onset.
 */
export function datedBy(entry: WithOnset): { kind: 'onset' | 'recorded'; date: string } | undefined {
  const onset = onsetOf(entry);
  if (onset) return { kind: 'onset', date: onset };
  return entry.recordedDate ? { kind: 'recorded', date: entry.recordedDate } : undefined;
}

/**
 * The onset fields to save for the form's day. An unchanged day keeps the entry's own onset (a
 * period keeps its end); a changed one is written as `onsetDateTime` alone, since onset[x] holds
 * one value and a second one is refused by the server; an emptied one removes the onset.
 */
export function onsetToSave(day: string, existing: WithOnset | undefined): Partial<WithOnset> {
  const kept: Partial<WithOnset> = {};
  if (existing && day === onsetDayOf(existing)) {
    for (const field of ONSET_FIELDS)
      if (existing[field] !== undefined) Object.assign(kept, { [field]: existing[field] });
    return kept;
  }
  return day ? { onsetDateTime: day } : {};
}

/** `entry` without any onset[x] value: the start of writing a new one. */
export function withoutOnset<T extends WithOnset>(entry: T): T {
  const copy = { ...entry };
  for (const field of ONSET_FIELDS) delete copy[field];
  return copy;
}
