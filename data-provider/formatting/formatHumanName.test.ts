import { describe, expect, it } from 'vitest';
import { formatHumanName } from './formatHumanName';

describe('formatHumanName', () => {
  it('prefers the text', () => {
    expect(formatHumanName({ text: ' Dr Ada Lovelace ', given: ['X'] })).toBe('Dr Ada Lovelace');
  });
  it('joins given names and family', () => {
    expect(formatHumanName({ given: ['Ada', 'Augusta'], family: 'King' })).toBe('Ada Augusta King');
  });
  it('adds prefix and suffix only when asked', () => {
    const name = { prefix: ['Mrs.'], given: ['Ada'], family: 'King', suffix: ['PhD'] };
    expect(formatHumanName(name)).toBe('Ada King');
    expect(formatHumanName(name, { prefix: true, suffix: true })).toBe('Mrs. Ada King PhD');
  });
  it('gives an empty string for nothing', () => {
    expect(formatHumanName(undefined)).toBe('');
    expect(formatHumanName({ given: ['  '] })).toBe('');
  });
});

describe('formatHumanName use', () => {
  it('appends the use in brackets only when asked', () => {
    const name = { use: 'maiden' as const, given: ['Ada'], family: 'Byron' };
    expect(formatHumanName(name)).toBe('Ada Byron');
    expect(formatHumanName(name, { use: true })).toBe('Ada Byron [maiden]');
  });
  it('applies the use to the text as well, but never to an empty name', () => {
    expect(formatHumanName({ use: 'official', text: 'Ada King' }, { use: true })).toBe('Ada King [official]');
    expect(formatHumanName({ use: 'official' }, { use: true })).toBe('');
  });
  it('trims the parts it joins', () => {
    expect(formatHumanName({ given: [' Ada '], family: ' King ' })).toBe('Ada King');
  });
});
