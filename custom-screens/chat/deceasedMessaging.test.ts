import { describe, expect, it } from 'vitest';
import {
  deceasedMessaging,
  deceasedTitle,
  PORTAL_CLOSED_REASON,
  PORTAL_CLOSED_TITLE,
  STAFF_DECEASED_REASON,
} from './deceasedMessaging';

describe('deceasedTitle', () => {
  it('says when, as people read a date', () => {
    expect(deceasedTitle({ deceasedDateTime: '2024-03-03' })).toBe('Died 3 Mar 2024');
    // Midday UTC is 3 March in every zone from UTC-11 to UTC+11.
    expect(deceasedTitle({ deceasedDateTime: '2024-03-03T12:00:00Z' })).toBe('Died 3 Mar 2024');
  });

  it('keeps a partial date partial, and says only "Deceased" without a date', () => {
    expect(deceasedTitle({ deceasedDateTime: '2024-03' })).toBe('Died Mar 2024');
    expect(deceasedTitle({ deceasedBoolean: true })).toBe('Deceased');
  });
});

describe('deceasedMessaging', () => {
  it('leaves a living patient’s conversation open, for both readers', () => {
    for (const reader of ['staff', 'patient'] as const) {
      expect(deceasedMessaging({ deceasedBoolean: false }, reader)).toBeUndefined();
      expect(deceasedMessaging({}, reader)).toBeUndefined();
      expect(deceasedMessaging(undefined, reader)).toBeUndefined();
    }
  });

  it('tells staff that the patient died, when, and why the box is closed', () => {
    expect(deceasedMessaging({ deceasedDateTime: '2024-03-03' }, 'staff')).toEqual({
      title: 'Died 3 Mar 2024',
      detail: expect.stringContaining('Earlier messages stay readable'),
      reason: STAFF_DECEASED_REASON,
    });
  });

  it('never tells a portal reader that they have died', () => {
    const closed = deceasedMessaging({ deceasedDateTime: '2024-03-03' }, 'patient');
    expect(closed).toMatchObject({ title: PORTAL_CLOSED_TITLE, reason: PORTAL_CLOSED_REASON });
    expect(Object.values(closed ?? {}).join(' ')).not.toMatch(/died|deceased|death/i);
  });
});
