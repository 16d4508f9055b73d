import type { Patient } from '@medplum/fhirtypes';
import { ageOf, readableDate } from '../../../../data-provider/formatting';

const DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** A FHIR date or dateTime as the calendar day it names (a date alone is not read as UTC midnight). */
function dayOf(value: string): Date | undefined {
  const day = DAY.exec(value);
  if (day && value.length === 10) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/**
 * The header's line about the patient's life: "12 Mar 1972 (52 y)"; for a patient who has died, the
 * age they reached and when — "3 Jul 1915 · died 6 Sep 1996 (81 y)" — not the age they would be
 * today (imported histories hold many who have died; "111 y" read as a living patient).
 */
export function birthLine(
  patient: Pick<Patient, 'birthDate' | 'deceasedBoolean' | 'deceasedDateTime'>,
  today: Date = new Date(),
): string {
  const born = patient.birthDate ? readableDate(patient.birthDate) : 'Birth date not recorded';
  const died = patient.deceasedDateTime ? dayOf(patient.deceasedDateTime) : undefined;
  if (patient.deceasedDateTime) {
    const age = died && ageOf(patient.birthDate, died);
    return `${born} · died ${readableDate(patient.deceasedDateTime)}${age ? ` (${age})` : ''}`;
  }
  if (patient.deceasedBoolean) return `${born} · deceased`;
  const age = ageOf(patient.birthDate, today);
  return age ? `${born} (${age})` : born;
}
