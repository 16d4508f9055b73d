import { describe, expect, it } from 'vitest';
import { ESTIMATE_COUNTED_UP_TO, isEstimatedTotal } from './estimatedTotal';

describe('isEstimatedTotal', () => {
  it('is an estimate only above what the server counts exactly, and only for _total=estimate', () => {
    expect(isEstimatedTotal('estimate', 5)).toBe(false);
    expect(isEstimatedTotal('estimate', ESTIMATE_COUNTED_UP_TO)).toBe(false);
    expect(isEstimatedTotal('estimate', ESTIMATE_COUNTED_UP_TO + 1)).toBe(true);
    expect(isEstimatedTotal('estimate', undefined)).toBe(false);
    expect(isEstimatedTotal('accurate', 50_000)).toBe(false);
    expect(isEstimatedTotal(undefined, 50_000)).toBe(false);
  });
});
