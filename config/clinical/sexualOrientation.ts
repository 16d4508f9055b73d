/** Sexual orientation (app-spec §9): a social-history Observation valued with one coded answer. */
import { SNOMED_SYSTEM, type CodedChoice } from './smokingStatus';

export const NULL_FLAVOR_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor';

export const SEXUAL_ORIENTATION_CODE = {
  system: 'http://loinc.org',
  code: '76690-7',
  display: 'Sexual orientation',
} as const;

export const SEXUAL_ORIENTATION_CHOICES: readonly CodedChoice[] = [
  { system: SNOMED_SYSTEM, code: '38628009', display: 'Homosexual' },
  { system: SNOMED_SYSTEM, code: '20430005', display: 'Heterosexual' },
  { system: SNOMED_SYSTEM, code: '42035005', display: 'Bisexual' },
  { system: NULL_FLAVOR_SYSTEM, code: 'OTH', display: 'Other' },
  { system: NULL_FLAVOR_SYSTEM, code: 'UNK', display: 'Unknown' },
  { system: NULL_FLAVOR_SYSTEM, code: 'ASKU', display: 'Asked but no answer' },
];
