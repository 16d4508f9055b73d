import type { AllergyIntolerance, CarePlan, Condition, MedicationRequest, Patient } from '@medplum/fhirtypes';

/** What a patient's imported record says, read before the demo adds anything to it. */
export interface PatientRecord {
  patient: Patient;
  conditions: Condition[];
  allergies: AllergyIntolerance[];
  medications: MedicationRequest[];
  carePlans: CarePlan[];
}

const SYNTHEA_IDENTIFIER_SYSTEM = 'https://github.com/synthetichealth/synthea';
const ADULT_AGE = 18;

/**
 * What names this record on every import, unlike its server-assigned id: Synthea's own identifier,
 * or the name and birth date of a patient from elsewhere.
 */
export function recordKeyOf(patient: Patient): string {
  const synthea = patient.identifier?.find((identifier) => identifier.system === SYNTHEA_IDENTIFIER_SYSTEM)?.value;
  if (synthea) return synthea;
  const name = patient.name?.[0];
  return [name?.family, ...(name?.given ?? []), patient.birthDate].filter(Boolean).join('|');
}

/**
 * The patients in an order that does not depend on their random ids (family name, given names,
 * then the record key): the demo's per-patient variations (dates, statuses, device or request)
 * fall on the same records on every fresh start.
 */
export function inRecordOrder(patients: readonly Patient[]): Patient[] {
  const sortKey = (patient: Patient) => {
    const name = patient.name?.[0];
    return [name?.family ?? '', (name?.given ?? []).join(' '), recordKeyOf(patient)];
  };
  return [...patients].sort((a, b) => {
    const [left, right] = [sortKey(a), sortKey(b)];
    for (let index = 0; index < left.length; index++) {
      const order = left[index].localeCompare(right[index], 'en');
      if (order !== 0) return order;
    }
    return 0;
  });
}

/** Whole years of age on `day`; undefined without a birth date. */
export function ageOn(patient: Patient, day: Date): number | undefined {
  if (!patient.birthDate) return undefined;
  const [year, month = 1, date = 1] = patient.birthDate.split('-').map(Number);
  const birthdayPassed = day.getUTCMonth() + 1 > month || (day.getUTCMonth() + 1 === month && day.getUTCDate() >= date);
  return day.getUTCFullYear() - year - (birthdayPassed ? 0 : 1);
}

/** Adult on `day`; a patient of unknown age is not taken for one (adult-only stories need to know). */
export function isAdultOn(patient: Patient, day: Date): boolean {
  return (ageOn(patient, day) ?? 0) >= ADULT_AGE;
}

/** Whether the record has an active order of this drug. */
export function isTaking(record: PatientRecord, system: string, code: string): boolean {
  return record.medications.some(
    (order) =>
      order.status === 'active' &&
      (order.medicationCodeableConcept?.coding ?? []).some(
        (coding) => coding.system === system && coding.code === code,
      ),
  );
}
