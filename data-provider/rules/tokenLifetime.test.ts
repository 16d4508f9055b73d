import { describe, expect, it } from 'vitest';
import { tokenLifetimeProblem, tokenLifetimeSeconds } from './tokenLifetime';

describe('tokenLifetimeSeconds', () => {
  it('reads seconds and the s, m, h, d and w units', () => {
    expect(tokenLifetimeSeconds('90')).toBe(90);
    expect(tokenLifetimeSeconds('45s')).toBe(45);
    expect(tokenLifetimeSeconds('30m')).toBe(1800);
    expect(tokenLifetimeSeconds(' 2h ')).toBe(7200);
    expect(tokenLifetimeSeconds('1d')).toBe(86_400);
    expect(tokenLifetimeSeconds('2w')).toBe(1_209_600);
    expect(tokenLifetimeSeconds('15 m')).toBe(900);
  });

  it('refuses zero, negatives, fractions, other units and words', () => {
    for (const value of ['0', '0h', '-5', '1.5h', '10y', 'PT1H', 'soon', '', '1234567890'])
      expect(tokenLifetimeSeconds(value), value).toBeUndefined();
  });
});

describe('tokenLifetimeProblem', () => {
  it('explains an unreadable lifetime and leaves good ones and non-strings alone', () => {
    expect(tokenLifetimeProblem('soon')).toBe(
      'A token lifetime is a positive number of seconds, or a number followed by s, m, h, d or w (30m, 1h, 2w)',
    );
    expect(tokenLifetimeProblem('1h')).toBeUndefined();
    expect(tokenLifetimeProblem(3600)).toBeUndefined();
    expect(tokenLifetimeProblem(undefined)).toBeUndefined();
  });
});
