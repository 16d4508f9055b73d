/** Parsing of typed vital values (app-spec §5: saved only when numeric and finite, blank ones skipped). */

export type ParsedVital = { kind: 'blank' } | { kind: 'invalid'; message: string } | { kind: 'valid'; value: number };

export const NOT_A_NUMBER_MESSAGE = 'Enter a number, e.g. 72 or 37.5';
export const NOT_FINITE_MESSAGE = 'The number is too large';
export const NEGATIVE_MESSAGE = 'Must not be negative';

/** A number that can be stored: not NaN, not ±Infinity. */
export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

// A plain decimal: Number() alone would also take '0x1F', '1e3' and '' (as 0).
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A typed vital: blank (skipped), invalid with the message shown under the field, or its value. */
export function parseVitalInput(text: string | undefined): ParsedVital {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return { kind: 'blank' };
  if (!DECIMAL.test(trimmed)) return { kind: 'invalid', message: NOT_A_NUMBER_MESSAGE };
  const value = Number(trimmed);
  if (!isFiniteNumber(value)) return { kind: 'invalid', message: NOT_FINITE_MESSAGE };
  if (value < 0) return { kind: 'invalid', message: NEGATIVE_MESSAGE };
  return { kind: 'valid', value };
}
