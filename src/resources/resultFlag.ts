import type { Observation } from '@medplum/fhirtypes';

/** Interpretation codes that flag a result row as critical (app-spec §5). */
export const CRITICAL_INTERPRETATIONS: readonly string[] = ['AA', 'LL', 'HH', 'A'];

/** HL7 v3 ObservationInterpretation codes for a value above or below its reference range (not critical). */
const HIGH_INTERPRETATIONS: readonly string[] = ['H', 'HU', '>'];
const LOW_INTERPRETATIONS: readonly string[] = ['L', 'LU', '<'];

export type ResultFlag = 'critical' | 'high' | 'low';

function hasCode(observation: Observation, codes: readonly string[]): boolean {
  return (observation.interpretation ?? []).some((concept) =>
    (concept.coding ?? []).some((coding) => codes.includes(coding.code ?? '')),
  );
}

export function isCritical(observation: Observation): boolean {
  return hasCode(observation, CRITICAL_INTERPRETATIONS);
}

/**
 * How a result row stands out: critical first (red row, app-spec §5), else high or low as its
 * interpretation says — a reader scanning a panel finds the abnormal values without reading each
 * interpretation cell. Judged from the lab's own interpretation only: ranges differ by lab, age and sex.
 */
export function resultFlag(observation: Observation): ResultFlag | undefined {
  if (isCritical(observation)) return 'critical';
  if (hasCode(observation, HIGH_INTERPRETATIONS)) return 'high';
  if (hasCode(observation, LOW_INTERPRETATIONS)) return 'low';
  return undefined;
}
