import type { CodeableConcept, Observation, Quantity } from '@medplum/fhirtypes';
import {
  BLOOD_PRESSURE,
  DIASTOLIC,
  SINGLE_VITALS,
  SYSTOLIC,
  type VitalDefinition,
  type VitalKey,
} from '../../../../config/clinical/vitals';
import { isFiniteNumber } from './vitalsParsing';

export interface VitalReading {
  /** When it was measured (effective, else issued, else last updated). */
  date: string;
  time: number;
  value: number;
  unit: string;
  observation: Observation;
}

function hasCode(concept: CodeableConcept | undefined, codes: readonly string[]): boolean {
  return (concept?.coding ?? []).some((coding) => codes.includes(coding.code ?? ''));
}

function whenMeasured(observation: Observation): string | undefined {
  return (
    observation.effectiveDateTime ??
    observation.effectivePeriod?.start ??
    observation.effectiveInstant ??
    observation.issued ??
    observation.meta?.lastUpdated
  );
}

function reading(observation: Observation, quantity: Quantity | undefined, unit: string): VitalReading | undefined {
  const date = whenMeasured(observation);
  const time = date ? Date.parse(date) : NaN;
  if (!isFiniteNumber(quantity?.value) || !Number.isFinite(time) || !date) return undefined;
  return { date, time, value: quantity.value, unit: quantity.unit ?? unit, observation };
}

/**
 * The readings of each vital in the loaded Observations, oldest first. Blood pressure parts come
 * from the panel's components and from stand-alone systolic/diastolic Observations alike.
 * Entered-in-error and cancelled Observations are left out: they were never true.
 */
export function vitalReadings(observations: readonly Observation[]): Map<VitalKey, VitalReading[]> {
  const byKey = new Map<VitalKey, VitalReading[]>();
  const add = (key: VitalKey, value: VitalReading | undefined) => {
    if (!value) return;
    const list = byKey.get(key) ?? [];
    list.push(value);
    byKey.set(key, list);
  };
  const parts: VitalDefinition[] = [SYSTOLIC, DIASTOLIC];
  for (const observation of observations) {
    if (observation.status === 'entered-in-error' || observation.status === 'cancelled') continue;
    if (hasCode(observation.code, BLOOD_PRESSURE.readCodes)) {
      for (const part of parts) {
        const component = observation.component?.find((c) => hasCode(c.code, part.readCodes));
        add(part.key, reading(observation, component?.valueQuantity, part.unit));
      }
      continue;
    }
    const vital = [...parts, ...SINGLE_VITALS].find((v) => hasCode(observation.code, v.readCodes));
    if (vital) add(vital.key, reading(observation, observation.valueQuantity, vital.unit));
  }
  for (const list of byKey.values()) list.sort((a, b) => a.time - b.time);
  return byKey;
}

/** The newest Observation with one of `codes`, by when it was measured. */
export function latestWithCode(
  observations: readonly Observation[],
  codes: readonly string[],
): Observation | undefined {
  let latest: Observation | undefined;
  let latestTime = -Infinity;
  for (const observation of observations) {
    if (observation.status === 'entered-in-error' || !hasCode(observation.code, codes)) continue;
    const time = Date.parse(whenMeasured(observation) ?? '');
    const comparable = Number.isFinite(time) ? time : -Infinity;
    if (!latest || comparable > latestTime) {
      latest = observation;
      latestTime = comparable;
    }
  }
  return latest;
}
