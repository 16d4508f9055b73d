import type { Patient } from '@medplum/fhirtypes';
import { CLINIC_MRN_SYSTEM } from '../../../config/clinical/patientDemographics';
import { formatHumanName, readableDate } from '../../../data-provider/formatting';

/**
 * The search for a patient who already has this MRN in the clinic's system. A token's value
 * escapes `\`, `,`, `$` and `|` (FHIR search: they separate values and parts), so an MRN holding
 * one is looked up as itself.
 */
export function mrnSearch(mrn: string): Record<string, string> {
  const escaped = mrn.trim().replace(/[\\,$|]/g, (character) => `\\${character}`);
  return { identifier: `${CLINIC_MRN_SYSTEM}|${escaped}` };
}

/** The same search as the `If-None-Exist` header of the create: the server's guard against a race. */
export function mrnCondition(mrn: string): string {
  return new URLSearchParams(mrnSearch(mrn)).toString();
}

/**
 * Whether the Patient the server answered with is the one the form sent, or one that already had
 * the MRN (a conditional create answers with the existing patient and creates nothing).
 */
export function isRegisteredAsSent(answered: Patient, sent: Patient): boolean {
  const nameOf = (patient: Patient) => JSON.stringify([patient.name?.[0]?.given, patient.name?.[0]?.family]);
  return nameOf(answered) === nameOf(sent) && answered.birthDate === sent.birthDate && answered.gender === sent.gender;
}

/** The message under the MRN field: who has it already, so the clerk can tell a typo from a second registration. */
export function duplicateMrnMessage(mrn: string, existing: Patient): string {
  const name = formatHumanName(existing.name?.[0]) || 'another patient';
  const born = existing.birthDate ? `, born ${readableDate(existing.birthDate)}` : '';
  return `MRN ${mrn.trim()} is already registered to ${name}${born}`;
}
