/** Smoking status (app-spec §9): a social-history Observation valued with one SNOMED CT code. */

export const SNOMED_SYSTEM = 'http://snomed.info/sct';

export const SMOKING_STATUS_CODE = {
  system: 'http://loinc.org',
  code: '72166-2',
  display: 'Tobacco smoking status',
} as const;

export const SOCIAL_HISTORY_CATEGORY = {
  system: 'http://terminology.hl7.org/CodeSystem/observation-category',
  code: 'social-history',
  display: 'Social History',
} as const;

/** Smoking status and sexual orientation are recorded as final (app-spec §4). */
export const SOCIAL_HISTORY_STATUS = 'final';

export interface CodedChoice {
  system: string;
  code: string;
  display: string;
}

export const SMOKING_STATUS_CHOICES: readonly CodedChoice[] = [
  { system: SNOMED_SYSTEM, code: '266919005', display: 'Never smoker' },
  { system: SNOMED_SYSTEM, code: '266927001', display: 'Unknown if ever smoked' },
  { system: SNOMED_SYSTEM, code: '428041000124106', display: 'Occasional tobacco smoker' },
  { system: SNOMED_SYSTEM, code: '428061000124105', display: 'Light tobacco smoker' },
  { system: SNOMED_SYSTEM, code: '428071000124103', display: 'Heavy tobacco smoker' },
  { system: SNOMED_SYSTEM, code: '449868002', display: 'Smokes tobacco daily' },
  { system: SNOMED_SYSTEM, code: '77176002', display: 'Smoker' },
  { system: SNOMED_SYSTEM, code: '8517006', display: 'Ex-smoker' },
];
