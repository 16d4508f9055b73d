import type { Patient } from '@medplum/fhirtypes';
import { CLINIC_MRN_SYSTEM } from '../../../config/clinical/patientDemographics';
import { formatHumanName, readableDate } from '../../../data-provider/formatting';
import type { NewPatientDraft } from './newPatient';

/**
 * A second registration of the same person under a new MRN splits their record as surely as a
 * repeated MRN does, but is not certain: two people may share a name and a birthday. So a patient
 * with the same family name, first given name and birth date is named to the clerk, who opens
 * that chart or registers anyway; nothing is refused.
 */

const folded = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

const firstGiven = (given: string) => given.trim().split(/\s+/)[0] ?? '';

/** The server search for candidates (string search matches the start of a name, case and accents aside); none without a birth date. */
export function possibleDuplicateSearch(draft: NewPatientDraft): Record<string, string> | undefined {
  if (!draft.birthDate || !draft.family.trim() || !draft.given.trim()) return undefined;
  return { family: draft.family.trim(), given: firstGiven(draft.given), birthdate: draft.birthDate, _count: '5' };
}

/** What the search brought that really is the same name and birth date (a prefix match is not). */
export function sameNameAndBirthDate(draft: NewPatientDraft, candidates: readonly Patient[]): Patient[] {
  const family = folded(draft.family);
  const given = folded(firstGiven(draft.given));
  return candidates.filter(
    (patient) =>
      patient.birthDate === draft.birthDate &&
      (patient.name ?? []).some(
        (name) => folded(name.family ?? '') === family && (name.given ?? []).some((part) => folded(part) === given),
      ),
  );
}

/** The form's answer once the clerk chose "Register anyway" for this name and birth date. */
export function duplicateCheckKey(draft: NewPatientDraft): string {
  return [folded(draft.family), folded(firstGiven(draft.given)), draft.birthDate].join('|');
}

/** 'Wendy Littel, born 15 Nov 2000, MRN 1234' — enough to tell whether it is the same person. */
export function possibleDuplicateLine(patient: Patient): string {
  const name = formatHumanName(patient.name?.[0]) || 'A patient';
  const mrn = patient.identifier?.find((identifier) => identifier.system === CLINIC_MRN_SYSTEM)?.value;
  return [name, patient.birthDate && `born ${readableDate(patient.birthDate)}`, mrn && `MRN ${mrn}`]
    .filter(Boolean)
    .join(', ');
}
