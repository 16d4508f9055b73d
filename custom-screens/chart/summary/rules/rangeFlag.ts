import type { ReferenceRange } from '../../../../config/clinical/vitals';

export type RangeFlag = 'High' | 'Low';

/** 'High' above the reference range, 'Low' below it, nothing within it or without a range. */
export function rangeFlag(value: number, range: ReferenceRange | undefined): RangeFlag | undefined {
  if (!range) return undefined;
  if (value > range.high) return 'High';
  if (value < range.low) return 'Low';
  return undefined;
}
