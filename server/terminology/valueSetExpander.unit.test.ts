import { describe, expect, it } from 'vitest';
import { matchesFilter } from './valueSetExpander';

describe('matchesFilter', () => {
  const code = { system: 's', code: 'I10', display: 'Essential (primary) hypertension' };
  it('matches a code prefix or the starts of display words', () => {
    expect(matchesFilter(code, 'i1')).toBe(true);
    expect(matchesFilter(code, 'hyper')).toBe(true);
    expect(matchesFilter(code, 'ess hyp')).toBe(true);
    expect(matchesFilter(code, 'prim')).toBe(true);
    expect(matchesFilter(code, '')).toBe(true);
  });
  it('does not match inside words or missing words', () => {
    expect(matchesFilter(code, 'tension')).toBe(false);
    expect(matchesFilter(code, 'hyper diabetes')).toBe(false);
    expect(matchesFilter({ system: 's', code: 'female', display: 'Female' }, 'male')).toBe(false);
  });
});
