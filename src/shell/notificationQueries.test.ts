import { describe, expect, it } from 'vitest';
import { isEPrescribingEnabled, openTasksQuery, unreadMailListPath, unreadMailQuery } from './notificationQueries';

describe('notification queries', () => {
  it('counts what is addressed to or owned by the profile and not completed', () => {
    const profile = { reference: 'Practitioner/42' };
    expect(unreadMailQuery(profile)).toBe('recipient=Practitioner/42&status:not=completed');
    expect(openTasksQuery(profile)).toBe('owner=Practitioner/42&status:not=completed');
    expect(unreadMailQuery(undefined)).toBeUndefined();
    // The list the icon opens shows what the messages say, newest first.
    expect(unreadMailListPath(profile)).toBe(
      '/Communication?recipient=Practitioner/42&status:not=completed&_fields=sender,subject,payload,sent&_sort=-sent',
    );
    expect(openTasksQuery({ display: 'no reference' })).toBeUndefined();
  });

  it('enables e-prescribing only for a membership identifier whose system contains dosespot', () => {
    const membership = (system?: string) => ({
      resourceType: 'ProjectMembership' as const,
      project: { reference: 'Project/1' },
      user: { reference: 'User/1' },
      profile: { reference: 'Practitioner/1' },
      identifier: [{ system, value: '123' }],
    });
    expect(isEPrescribingEnabled(membership('https://my.DoseSpot.com/clinician-id'))).toBe(true);
    expect(isEPrescribingEnabled(membership('https://example.org/npi'))).toBe(false);
    expect(isEPrescribingEnabled(membership(undefined))).toBe(false);
    expect(isEPrescribingEnabled(undefined)).toBe(false);
  });
});
