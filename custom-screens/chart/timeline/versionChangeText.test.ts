import { describe, expect, it } from 'vitest';
import { changeFieldLabel, changeValueText } from './versionChangeText';

describe('the timeline’s Before/After table in words', () => {
  it('names fields as a clinician reads them', () => {
    expect(changeFieldLabel('birthDate')).toBe('Birth Date');
    expect(changeFieldLabel('name[0].family')).toBe('Name › Family');
    expect(changeFieldLabel('telecom[1].value')).toBe('Telecom 2 › Value');
    expect(changeFieldLabel('deceasedDateTime')).toBe('Deceased Date Time');
  });

  it('writes dates, instants and flags as people read them', () => {
    expect(changeValueText('2000-11-15')).toBe('15 Nov 2000');
    expect(changeValueText('2026-11-18T10:30:00Z')).not.toContain('T10:30');
    expect(changeValueText('2026-11-18T10:30:00Z')).toMatch(/2026/);
    expect(changeValueText(true)).toBe('Yes');
    expect(changeValueText(undefined)).toBe('—');
    // A code is not a date, even when it is all digits.
    expect(changeValueText('12345')).toBe('12345');
    expect(changeValueText('Littel')).toBe('Littel');
    expect(changeValueText({ system: 'phone' })).toBe('{"system":"phone"}');
  });
});
