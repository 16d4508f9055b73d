import { describe, expect, it } from 'vitest';
import { isBase64Binary } from './base64Binary';
import { validatePrimitive } from './primitiveRules';

/** The rule this check replaced; right on short values, out of stack on long ones. */
const regexRule = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Every string of `alphabet` up to `maxLength` characters, the empty one included. */
function* allStrings(alphabet: string, maxLength: number): Generator<string> {
  let current = [''];
  yield '';
  for (let length = 1; length <= maxLength; length++) {
    const next: string[] = [];
    for (const prefix of current) for (const char of alphabet) next.push(prefix + char);
    yield* next;
    current = next;
  }
}

/** 5 MiB of valid base64 (the size that ran the regular expression out of stack in V8). */
const fiveMegabytes = 'QUJD'.repeat((5 * 1024 * 1024) / 4);

function timed<T>(run: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = run();
  return { result, ms: performance.now() - start };
}

describe('isBase64Binary', () => {
  it('accepts exactly what the regular expression did, on every short string', () => {
    // Letters, digits, both symbols, padding, a white space and characters outside the alphabet
    // (`-` and `_` are base64url's): all placements of padding and length up to two groups.
    const differences: string[] = [];
    for (const value of allStrings('Az9+/= -_', 6)) {
      if (isBase64Binary(value) !== regexRule.test(value)) differences.push(JSON.stringify(value));
    }
    for (const value of allStrings('A/=\n', 8)) {
      if (isBase64Binary(value) !== regexRule.test(value)) differences.push(JSON.stringify(value));
    }
    expect(differences).toEqual([]);
  });

  it('reads valid and broken values', () => {
    for (const valid of ['QUJD', 'QQ==', 'QUI=', 'aGVsbG8gd29ybGQ=', 'ab+/AB09'])
      expect(isBase64Binary(valid)).toBe(true);
    for (const invalid of [
      'Q',
      'QQ=',
      'QQ===',
      '====',
      'Q===',
      'QQ==QUJD',
      'QU=D',
      'QUJD\n',
      'QU JD',
      'ab-_',
      'QUJDé',
    ]) {
      expect({ invalid, valid: isBase64Binary(invalid) }).toEqual({ invalid, valid: false });
    }
  });
});

describe('base64Binary values of 5 MB', () => {
  it('are valid, answered quickly (the regular expression threw "Maximum call stack size exceeded")', () => {
    const { result, ms } = timed(() => validatePrimitive('base64Binary', fiveMegabytes));
    expect(result).toBeUndefined();
    expect(ms).toBeLessThan(1000);
    expect(validatePrimitive('base64Binary', `${fiveMegabytes}QQ==`)).toBeUndefined();
  });

  it('with one bad character at the end are invalid, answered quickly', () => {
    const { result, ms } = timed(() => validatePrimitive('base64Binary', `${fiveMegabytes.slice(0, -1)}!`));
    expect(result).toBe('Invalid base64Binary format');
    expect(ms).toBeLessThan(1000);
    expect(validatePrimitive('base64Binary', `${fiveMegabytes.slice(0, -4)}QQ=\n`)).toBe('Invalid base64Binary format');
    expect(validatePrimitive('base64Binary', `${fiveMegabytes}Q`)).toBe('Invalid base64Binary format');
    expect(validatePrimitive('base64Binary', `QQ==${fiveMegabytes}`)).toBe('Invalid base64Binary format');
  });
});
