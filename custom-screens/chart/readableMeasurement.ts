import type { Observation, ObservationComponent, Quantity } from '@medplum/fhirtypes';

/** More than any lab reports; fewer than the float noise of computed or imported values. */
const SIGNIFICANT_DIGITS = 4;

/**
 * A measured number as a list shows it: at most four significant digits, never fewer than its
 * whole part ('14.11' for Synthea's 14.111263586938584, '12346' for 12345.6). Values that already
 * have no more are left as they are; the record itself keeps every digit.
 */
export function readableNumber(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const decimals = Math.max(0, SIGNIFICANT_DIGITS - 1 - Math.floor(Math.log10(Math.abs(value))));
  return Number(value.toFixed(Math.min(decimals, 20)));
}

const readableQuantity = (quantity: Quantity | undefined): Quantity | undefined =>
  typeof quantity?.value === 'number' ? { ...quantity, value: readableNumber(quantity.value) } : quantity;

/** A copy of the Observation whose quantities (its own and its components') read as `readableNumber`. */
export function withReadableMeasurements(observation: Observation): Observation {
  return {
    ...observation,
    valueQuantity: readableQuantity(observation.valueQuantity),
    component: observation.component?.map((component): ObservationComponent => ({
      ...component,
      valueQuantity: readableQuantity(component.valueQuantity),
    })),
  };
}
