import { describe, expect, it } from 'vitest';
import { formatIdentifier } from './formatIdentifier';

const mrn = {
  system: 'http://hospital.example/mrn',
  value: '12345',
  type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }], text: 'MRN' },
};

describe('formatIdentifier', () => {
  it('labels the value with the identifier type', () => {
    expect(formatIdentifier(mrn)).toBe('MRN: 12345');
    expect(formatIdentifier({ value: '1', type: { coding: [{ code: 'SS', display: 'Social Security' }] } })).toBe(
      'Social Security: 1',
    );
  });
  it('shows the value alone without a type', () => {
    expect(formatIdentifier({ system: 'urn:x', value: '12345' })).toBe('12345');
  });
  it('gives the search token system|value when asked', () => {
    expect(formatIdentifier(mrn, { system: true })).toBe('http://hospital.example/mrn|12345');
    expect(formatIdentifier({ value: '12345' }, { system: true })).toBe('12345');
  });
  it('gives an empty string without a value', () => {
    expect(formatIdentifier({ system: 'urn:x' })).toBe('');
    expect(formatIdentifier(undefined)).toBe('');
  });
});
