import type { Quantity } from '@medplum/fhirtypes';

/** Tolerance of strict number comparison (spec §5, §9). */
export const STRICT_NUMBER_TOLERANCE = 1e-8;
/** Tolerance of loose number comparison and of quantity values (spec §5, §9). */
export const LOOSE_NUMBER_TOLERANCE = 0.01;

/**
 * Decimal equality that ignores binary rounding noise: 0.1 + 0.2 equals 0.3. Strict by default;
 * pass 'loose' where two displayed or measured values should count as the same.
 */
export function preciseEquals(a: number, b: number, precision: 'strict' | 'loose' = 'strict'): boolean {
  const tolerance = precision === 'loose' ? LOOSE_NUMBER_TOLERANCE : STRICT_NUMBER_TOLERANCE;
  return Math.abs(a - b) < tolerance;
}

/**
 * Two quantities are equal when their values are within 0.01 and they share a unit or a code
 * (spec §5). Units are compared with codes too, because one source writes 'mg' as the unit and
 * another only as the UCUM code. Two quantities without any unit are plain numbers and compare
 * by value alone. A comparator must match as well: '< 5 mg' is not the measurement '5 mg'.
 */
export function quantityEquals(a: Quantity | undefined, b: Quantity | undefined): boolean {
  if (typeof a?.value !== 'number' || typeof b?.value !== 'number') return false;
  if (!preciseEquals(a.value, b.value, 'loose')) return false;
  if ((a.comparator ?? '') !== (b.comparator ?? '')) return false;
  const unitsOfA = unitLabels(a);
  const unitsOfB = unitLabels(b);
  if (unitsOfA.length === 0 && unitsOfB.length === 0) return true;
  return unitsOfA.some((label) => unitsOfB.includes(label));
}

function unitLabels(quantity: Quantity): string[] {
  return [quantity.unit, quantity.code].filter((label): label is string => typeof label === 'string' && label !== '');
}
