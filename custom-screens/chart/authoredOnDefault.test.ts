import { describe, expect, it } from 'vitest';
import { authoredOnDefault, localDateTime } from './authoredOnDefault';

describe('authoredOn of a record made from its chart tab', () => {
  it('is now, for the types their tab sorts by it; others get none', () => {
    const now = new Date(2026, 10, 21, 9, 5, 7);
    for (const type of ['Task', 'MedicationRequest', 'ServiceRequest'])
      expect(authoredOnDefault(type, now)).toEqual({ authoredOn: localDateTime(now) });
    expect(authoredOnDefault('Appointment', now)).toBeUndefined();
    expect(authoredOnDefault('Device', now)).toBeUndefined();
  });

  it('reads as the wall clock with the offset, as the form writes a typed time', () => {
    const value = localDateTime(new Date(2026, 10, 21, 9, 5, 7));
    expect(value).toMatch(/^2026-11-21T09:05:07(Z|[+-]\d{2}:\d{2})$/);
    expect(new Date(value).getTime()).toBe(new Date(2026, 10, 21, 9, 5, 7).getTime());
  });
});
