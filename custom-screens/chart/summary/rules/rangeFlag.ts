import type { Observation } from '@medplum/fhirtypes';
import type { ReferenceRange, VitalDefinition } from '../../../../config/clinical/vitals';
import { isFiniteNumber } from './vitalsParsing';

export type RangeFlag = 'High' | 'Low';

/** 'High' above the reference range, 'Low' below it, nothing within it or without a range. */
export function rangeFlag(value: number, range: ReferenceRange | undefined): RangeFlag | undefined {
  if (!range) return undefined;
  if (value > range.high) return 'High';
  if (value < range.low) return 'Low';
  return undefined;
}

/**
 * The range a reading is judged against: the one its lab or device recorded on the Observation (or
 * on the blood pressure component) when it has both ends, else the adult range of the config.
 */
export function rangeFor(observation: Observation, definition: VitalDefinition): ReferenceRange | undefined {
  const component = observation.component?.find((c) =>
    (c.code.coding ?? []).some((coding) => definition.readCodes.includes(coding.code ?? '')),
  );
  const own = (component ? component.referenceRange : observation.referenceRange)?.[0];
  const low = own?.low?.value;
  const high = own?.high?.value;
  if (isFiniteNumber(low) && isFiniteNumber(high)) return { low, high };
  return definition.referenceRange;
}
