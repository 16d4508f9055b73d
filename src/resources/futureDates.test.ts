import { describe, expect, it } from 'vitest';
import { isAfterDay as isAfterToday, localDay as localToday } from '../../data-provider/rules';
import { FUTURE_BIRTH_DATE, FUTURE_DECEASED_DATE, futureDateIssues } from './futureDates';

const today = '2025-06-15';

describe('isAfterToday', () => {
  it('compares a date at its own precision', () => {
    expect(isAfterToday('2040', today)).toBe(true);
    expect(isAfterToday('2025', today)).toBe(false);
    expect(isAfterToday('2025-07', today)).toBe(true);
    expect(isAfterToday('2025-06', today)).toBe(false);
    expect(isAfterToday('2025-06-16', today)).toBe(true);
    expect(isAfterToday('2025-06-15', today)).toBe(false);
    expect(isAfterToday('1980-02-03', today)).toBe(false);
  });

  it('judges a dateTime by its local date and leaves malformed text to the format rules', () => {
    expect(isAfterToday('2025-06-16', today)).toBe(true);
    const later = new Date(2025, 5, 16, 9, 0, 0).toISOString();
    const earlier = new Date(2025, 5, 15, 23, 30, 0).toISOString();
    expect(isAfterToday(later, today)).toBe(true);
    expect(isAfterToday(earlier, today)).toBe(false);
    expect(isAfterToday('2040-01-01T10:00', today)).toBe(true);
    expect(isAfterToday('soon', today)).toBe(false);
    expect(isAfterToday('2040-13-99Tx', today)).toBe(false);
  });
});

describe('localToday', () => {
  it('is the local calendar date', () => {
    expect(localToday(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
  });
});

describe('futureDateIssues', () => {
  it('refuses a future birth date of a person under the field', () => {
    for (const resourceType of ['Patient', 'Person', 'RelatedPerson', 'Practitioner']) {
      expect(futureDateIssues({ resourceType, birthDate: '2040' }, today)).toEqual([
        expect.objectContaining({
          severity: 'error',
          details: { text: FUTURE_BIRTH_DATE },
          expression: [`${resourceType}.birthDate`],
        }),
      ]);
    }
  });

  it('refuses a future date of death, named as the form names the choice', () => {
    expect(futureDateIssues({ resourceType: 'Patient', deceasedDateTime: '2040-01-01T00:00:00Z' }, today)).toEqual([
      expect.objectContaining({ details: { text: FUTURE_DECEASED_DATE }, expression: ['Patient.deceased'] }),
    ]);
    expect(futureDateIssues({ resourceType: 'FamilyMemberHistory', deceasedDate: '2040-01' }, today)).toEqual([
      expect.objectContaining({ expression: ['FamilyMemberHistory.deceased'] }),
    ]);
  });

  it('accepts past and present dates and other types', () => {
    expect(futureDateIssues({ resourceType: 'Patient', birthDate: today, deceasedBoolean: true }, today)).toEqual([]);
    expect(futureDateIssues({ resourceType: 'Patient', birthDate: '2025-06' }, today)).toEqual([]);
    expect(futureDateIssues({ resourceType: 'Observation', birthDate: '2040' }, today)).toEqual([]);
  });
});
