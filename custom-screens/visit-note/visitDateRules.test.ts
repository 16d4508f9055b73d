import { describe, expect, it } from 'vitest';
import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import { localDay as localToday } from '../../data-provider/rules';
import { FUTURE_VISIT_DATE_MESSAGE, visitDateProblem } from './visitDateRules';

const note = (valueDate?: string): QuestionnaireResponse => ({
  resourceType: 'QuestionnaireResponse',
  status: 'completed',
  item: [
    { linkId: 'visit-date', text: 'Date of visit', ...(valueDate ? { answer: [{ valueDate }] } : {}) },
    { linkId: 'subjective', item: [{ linkId: 'hot-flashes', answer: [{ valueBoolean: true }] }] },
  ],
});

describe('visitDateProblem: a visit note records a visit that took place', () => {
  const today = '2026-03-02';

  it('refuses a date after today', () => {
    expect(visitDateProblem(note('2099-12-31'), today)).toBe(FUTURE_VISIT_DATE_MESSAGE);
    expect(visitDateProblem(note('2026-03-03'), today)).toBe(FUTURE_VISIT_DATE_MESSAGE);
  });

  it("accepts today, a past date (the questionnaire's initial 2023-10-19) and no date", () => {
    expect(visitDateProblem(note('2026-03-02'), today)).toBeUndefined();
    expect(visitDateProblem(note('2023-10-19'), today)).toBeUndefined();
    expect(visitDateProblem(note(), today)).toBeUndefined();
  });

  it('compares a partial date at its own precision', () => {
    expect(visitDateProblem(note('2026'), today)).toBeUndefined();
    expect(visitDateProblem(note('2026-03'), today)).toBeUndefined();
    expect(visitDateProblem(note('2026-04'), today)).toBe(FUTURE_VISIT_DATE_MESSAGE);
    expect(visitDateProblem(note('2027'), today)).toBe(FUTURE_VISIT_DATE_MESSAGE);
  });

  it("takes today in the viewer's zone, not UTC", () => {
    // 23:30 local on 2 March is already 3 March in UTC east of here, and still 2 March in UTC west.
    expect(localToday(new Date(2026, 2, 2, 23, 30))).toBe('2026-03-02');
    expect(localToday(new Date(2026, 0, 9, 0, 5))).toBe('2026-01-09');
  });
});
