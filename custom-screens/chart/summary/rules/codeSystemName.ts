import type { Coding } from '@medplum/fhirtypes';
import { CODE_SYSTEM_NAMES } from '../../../../config/clinical/codeSystems';

/** "SNOMED CT", "RxNorm", else the system's URL (an unknown system is named exactly). */
export function codeSystemName(system: string | undefined): string {
  if (!system) return 'No code system';
  return CODE_SYSTEM_NAMES[system] ?? system;
}

/** A code as a clinician reads it beside a name: "SNOMED CT 38341003". */
export function codeLabel(coding: Coding): string {
  return `${codeSystemName(coding.system)} ${coding.code ?? ''}`.trim();
}
