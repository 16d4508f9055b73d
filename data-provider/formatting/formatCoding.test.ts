import { describe, expect, it } from 'vitest';
import { formatCodeableConcept, formatCoding } from './formatCoding';

describe('formatCoding', () => {
  it('prefers the display, then the code', () => {
    expect(formatCoding({ code: '38341003', display: 'Hypertension' })).toBe('Hypertension');
    expect(formatCoding({ code: '38341003' })).toBe('38341003');
    expect(formatCoding({ display: '  ', code: 'x' })).toBe('x');
  });
  it('adds the code in parentheses when asked', () => {
    expect(formatCoding({ code: '38341003', display: 'Hypertension' }, { includeCode: true })).toBe(
      'Hypertension (38341003)',
    );
    expect(formatCoding({ code: '38341003' }, { includeCode: true })).toBe('38341003');
  });
  it('gives an empty string for nothing', () => {
    expect(formatCoding(undefined)).toBe('');
    expect(formatCoding({ system: 'http://snomed.info/sct' })).toBe('');
  });
});

describe('formatCodeableConcept', () => {
  it('prefers the text', () => {
    expect(formatCodeableConcept({ text: 'High blood pressure', coding: [{ display: 'Hypertension' }] })).toBe(
      'High blood pressure',
    );
  });
  it('takes the first coding with a display, even when an earlier one has only a code', () => {
    expect(formatCodeableConcept({ coding: [{ code: 'I10' }, { code: '38341003', display: 'Hypertension' }] })).toBe(
      'Hypertension',
    );
  });
  it('falls back to the first code', () => {
    expect(formatCodeableConcept({ coding: [{ system: 'x' }, { code: 'I10' }] })).toBe('I10');
  });
  it('gives an empty string for nothing', () => {
    expect(formatCodeableConcept(undefined)).toBe('');
    expect(formatCodeableConcept({ text: ' ', coding: [] })).toBe('');
  });
});
