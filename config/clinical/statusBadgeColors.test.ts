import { describe, expect, it } from 'vitest';
import { statusColor } from '../../src/datatypes/statusColor';
import { GRAY_STATUSES, STATUS_BADGE_COLORS } from './statusBadgeColors';

describe('status badge colours (app-spec §4)', () => {
  it.each([
    [
      'blue',
      'draft active registered preliminary requested received accepted ready in-progress proposed pending booked arrived checked-in connected',
    ],
    ['yellow', 'on-hold amended corrected'],
    ['red', 'revoked entered-in-error rejected failed cancelled noshow not-done disconnected urgent asap stat'],
    ['green', 'completed final fulfilled'],
    ['gray', 'unknown retired waitlist routine'],
  ])('%s: every status the spec lists', (color, statuses) => {
    for (const status of statuses.split(' ')) expect(statusColor(status), status).toBe(color);
  });

  it('an unlisted or differently cased status is gray, not a guess', () => {
    expect(statusColor('something-else')).toBe('gray');
    expect(statusColor('')).toBe('gray');
    expect(statusColor('Active')).toBe('gray');
  });

  it('no status has two colours', () => {
    const all = [...Object.values(STATUS_BADGE_COLORS).flat(), ...GRAY_STATUSES];
    expect(new Set(all).size).toBe(all.length);
  });
});
