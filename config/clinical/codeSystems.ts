import { SNOMED_SYSTEM } from './smokingStatus';

export const RXNORM_SYSTEM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/**
 * Short names clinicians know code systems by, shown beside a code ("SNOMED CT 38341003"). A system
 * not listed here is shown by its URL: a made-up abbreviation would hide which system it is.
 */
export const CODE_SYSTEM_NAMES: Readonly<Record<string, string>> = {
  [SNOMED_SYSTEM]: 'SNOMED CT',
  [RXNORM_SYSTEM]: 'RxNorm',
};
