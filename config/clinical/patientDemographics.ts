/** Values of the new-patient form (onboarding): US Core race and ethnicity (OMB), gender, identifier. */
export const OMB_SYSTEM = 'urn:oid:2.16.840.1.113883.6.238';
export const NULL_FLAVOR_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor';

export interface DemographicOption {
  system: string;
  code: string;
  display: string;
}

export const RACE_OPTIONS: readonly DemographicOption[] = [
  { system: OMB_SYSTEM, code: '1002-5', display: 'American Indian or Alaska Native' },
  { system: OMB_SYSTEM, code: '2028-9', display: 'Asian' },
  { system: OMB_SYSTEM, code: '2054-5', display: 'Black or African American' },
  { system: OMB_SYSTEM, code: '2076-8', display: 'Native Hawaiian or Other Pacific Islander' },
  { system: OMB_SYSTEM, code: '2106-3', display: 'White' },
  { system: NULL_FLAVOR_SYSTEM, code: 'ASKU', display: 'Asked but no answer' },
];

export const ETHNICITY_OPTIONS: readonly DemographicOption[] = [
  { system: OMB_SYSTEM, code: '2135-2', display: 'Hispanic or Latino' },
  { system: OMB_SYSTEM, code: '2186-5', display: 'Not Hispanic or Latino' },
  { system: NULL_FLAVOR_SYSTEM, code: 'ASKU', display: 'Asked but no answer' },
];

export const GENDER_OPTIONS = [
  { code: 'female', display: 'Female' },
  { code: 'male', display: 'Male' },
  { code: 'other', display: 'Other' },
  { code: 'unknown', display: 'Unknown' },
] as const;

/** The clinic's medical record number system, written on identifiers the front desk enters. */
export const CLINIC_MRN_SYSTEM = 'urn:hearth:demo-clinic:mrn';
