import type { Extension, Patient } from '@medplum/fhirtypes';
import {
  CLINIC_MRN_SYSTEM,
  ETHNICITY_OPTIONS,
  RACE_OPTIONS,
  type DemographicOption,
} from '../../../config/clinical/patientDemographics';
import {
  US_CORE_ETHNICITY_EXTENSION,
  US_CORE_PATIENT_PROFILE,
  US_CORE_RACE_EXTENSION,
} from '../../../config/clinical/profileUrls';

/** What the front desk types for a new patient; every value a string, as the inputs hold it. */
export interface NewPatientDraft {
  given: string;
  family: string;
  birthDate: string;
  gender: string;
  mrn: string;
  phone: string;
  email: string;
  line: string;
  city: string;
  state: string;
  postalCode: string;
  race: string;
  ethnicity: string;
}

export type DraftField = keyof NewPatientDraft;

export const EMPTY_DRAFT: NewPatientDraft = {
  given: '',
  family: '',
  birthDate: '',
  gender: '',
  mrn: '',
  phone: '',
  email: '',
  line: '',
  city: '',
  state: '',
  postalCode: '',
  race: '',
  ethnicity: '',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^[+()\d\s.-]{7,}$/;

/** The form's own rules: what US Core requires (name, gender, identifier) and values that make sense. */
export function draftErrors(draft: NewPatientDraft, today: string): Partial<Record<DraftField, string>> {
  const errors: Partial<Record<DraftField, string>> = {};
  if (!draft.given.trim()) errors.given = 'Given name is required';
  if (!draft.family.trim()) errors.family = 'Family name is required';
  if (!draft.gender) errors.gender = 'Gender is required';
  if (!draft.mrn.trim()) errors.mrn = 'Medical record number is required';
  if (draft.birthDate) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.birthDate) || Number.isNaN(Date.parse(draft.birthDate))) {
      errors.birthDate = 'Birth date must be a date (YYYY-MM-DD)';
    } else if (draft.birthDate > today) {
      errors.birthDate = 'Birth date cannot be in the future';
    }
  }
  if (draft.email.trim() && !EMAIL.test(draft.email.trim())) errors.email = 'Email must look like name@example.com';
  if (draft.phone.trim() && !PHONE.test(draft.phone.trim())) errors.phone = 'Phone may hold digits, spaces, + ( ) . -';
  return errors;
}

function ombExtension(url: string, option: DemographicOption | undefined): Extension | undefined {
  if (!option) return undefined;
  const coding = { system: option.system, code: option.code, display: option.display };
  return {
    url,
    extension: [
      // A null flavour is not an OMB category: US Core carries it in the same slot, with its own system.
      { url: 'ombCategory', valueCoding: coding },
      { url: 'text', valueString: option.display },
    ],
  };
}

/** The US Core Patient the draft describes; empty fields are left out, not written as empty strings. */
export function draftToPatient(draft: NewPatientDraft): Patient {
  const trimmed = Object.fromEntries(
    Object.entries(draft).map(([key, value]) => [key, value.trim()]),
  ) as unknown as NewPatientDraft;
  const extension = [
    ombExtension(
      US_CORE_RACE_EXTENSION,
      RACE_OPTIONS.find((option) => option.code === trimmed.race),
    ),
    ombExtension(
      US_CORE_ETHNICITY_EXTENSION,
      ETHNICITY_OPTIONS.find((option) => option.code === trimmed.ethnicity),
    ),
  ].filter((value): value is Extension => !!value);
  const telecom = [
    ...(trimmed.phone ? [{ system: 'phone' as const, value: trimmed.phone, use: 'home' as const }] : []),
    ...(trimmed.email ? [{ system: 'email' as const, value: trimmed.email }] : []),
  ];
  const hasAddress = trimmed.line || trimmed.city || trimmed.state || trimmed.postalCode;
  const patient: Patient = {
    resourceType: 'Patient',
    meta: { profile: [US_CORE_PATIENT_PROFILE] },
    ...(extension.length ? { extension } : {}),
    identifier: [
      {
        type: {
          coding: [
            { system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR', display: 'Medical record number' },
          ],
        },
        system: CLINIC_MRN_SYSTEM,
        value: trimmed.mrn,
      },
    ],
    active: true,
    name: [{ use: 'official', given: trimmed.given.split(/\s+/).filter(Boolean), family: trimmed.family }],
    ...(telecom.length ? { telecom } : {}),
    gender: trimmed.gender as Patient['gender'],
    ...(trimmed.birthDate ? { birthDate: trimmed.birthDate } : {}),
    ...(hasAddress
      ? {
          address: [
            {
              use: 'home' as const,
              ...(trimmed.line ? { line: [trimmed.line] } : {}),
              ...(trimmed.city ? { city: trimmed.city } : {}),
              ...(trimmed.state ? { state: trimmed.state } : {}),
              ...(trimmed.postalCode ? { postalCode: trimmed.postalCode } : {}),
            },
          ],
        }
      : {}),
  };
  return patient;
}

/**
 * A server or profile issue's element path → the form field it belongs under (array indexes
 * ignored, except a telecom's: with `patient`, the Patient the form built, `telecom[i]` goes under
 * Email when that entry is the e-mail address, not always under Phone).
 */
export function fieldOfIssuePath(path: string, patient?: Patient): DraftField | undefined {
  const telecom = /^(?:Patient\.)?telecom\[(\d+)\]/.exec(path);
  if (telecom && patient?.telecom?.[Number(telecom[1])]?.system === 'email') return 'email';
  const clean = path.replace(/\[\d+\]/g, '').replace(/^Patient\./, '');
  if (clean.startsWith('name.given')) return 'given';
  if (clean.startsWith('name')) return 'family';
  if (clean.startsWith('identifier')) return 'mrn';
  if (clean.startsWith('gender')) return 'gender';
  if (clean.startsWith('birthDate')) return 'birthDate';
  if (clean.startsWith('telecom')) return 'phone';
  if (clean.startsWith('address.city')) return 'city';
  if (clean.startsWith('address.state')) return 'state';
  if (clean.startsWith('address.postalCode')) return 'postalCode';
  if (clean.startsWith('address')) return 'line';
  return undefined;
}
