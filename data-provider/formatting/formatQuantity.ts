import type { Quantity, Range } from '@medplum/fhirtypes';

/**
 * '<5 mg', '37.5 Cel', '12 %': comparator, value and unit (else code). `precision` fixes the
 * number of decimals, for columns of measurements that should line up.
 */
export function formatQuantity(quantity: Quantity | undefined, precision?: number): string {
  if (!quantity) return '';
  const value = formatValue(quantity.value, precision);
  const unit = unitOf(quantity);
  if (!value) return unit;
  return `${quantity.comparator ?? ''}${value}${unit ? ` ${unit}` : ''}`;
}

/**
 * '5 - 10 mg' when both ends share a unit, '5 mg - 1 g' when not, '>= 5 mg' or '<= 10 mg' when
 * the range is open on one side (FHIR: a missing end means no limit).
 */
export function formatRange(range: Range | undefined, precision?: number): string {
  const low = formatValue(range?.low?.value, precision) ? range?.low : undefined;
  const high = formatValue(range?.high?.value, precision) ? range?.high : undefined;
  if (low && high) {
    const lowUnit = unitOf(low);
    const highUnit = unitOf(high);
    if (!lowUnit || lowUnit === highUnit)
      return `${formatValue(low.value, precision)} - ${formatQuantity(high, precision)}`;
    return `${formatQuantity(low, precision)} - ${formatQuantity(high, precision)}`;
  }
  if (low) return `>= ${formatQuantity(low, precision)}`;
  if (high) return `<= ${formatQuantity(high, precision)}`;
  return '';
}

function formatValue(value: number | undefined, precision: number | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return precision === undefined ? String(value) : value.toFixed(precision);
}

function unitOf(quantity: Quantity): string {
  return quantity.unit?.trim() || quantity.code?.trim() || '';
}
