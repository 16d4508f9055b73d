import { describe, expect, it } from 'vitest';
import {
  bloodPressureAt,
  bloodPressureAtGoal,
  calmVitalsAt,
  DIAGNOSIS_VISIT,
  VITALS_VISITS,
  vitalsVisitDays,
} from './demoVitalsHistory';

const visits = vitalsVisitDays(-28);
const untreated = { hypertensive: true };

describe('vitalsVisitDays', () => {
  it('gives twelve monthly visits, oldest first, the last on the given day', () => {
    expect(visits).toHaveLength(VITALS_VISITS);
    expect(visits.at(-1)).toBe(-28);
    expect(visits[0]).toBe(-28 - 30 * 11);
    for (let visit = 1; visit < visits.length; visit++) expect(visits[visit] - visits[visit - 1]).toBe(30);
  });
});

describe('bloodPressureAt', () => {
  it('is raised (140–155 / 88–98) at every visit before the drug, the day it is started included', () => {
    for (const story of [untreated, { hypertensive: true, treatmentStartDay: visits.at(-1) }]) {
      for (const [visit, day] of visits.entries()) {
        const { systolic, diastolic } = bloodPressureAt(visit, day, story);
        expect(systolic, `visit ${visit}`).toBeGreaterThanOrEqual(140);
        expect(systolic, `visit ${visit}`).toBeLessThanOrEqual(155);
        expect(diastolic, `visit ${visit}`).toBeGreaterThanOrEqual(88);
        expect(diastolic, `visit ${visit}`).toBeLessThanOrEqual(98);
      }
    }
    // Diagnosed at the second raised reading: the first two are both above 140/90.
    for (const visit of [0, DIAGNOSIS_VISIT]) {
      const { systolic, diastolic } = bloodPressureAt(visit, visits[visit], untreated);
      expect(systolic >= 140 && diastolic >= 90).toBe(true);
    }
  });

  it('comes down in the weeks after the drug is started, towards target', () => {
    const start = visits[6];
    const story = { hypertensive: true, treatmentStartDay: start };
    const before = visits.slice(0, 7).map((day, visit) => bloodPressureAt(visit, day, story));
    const after = visits.slice(7).map((day, index) => bloodPressureAt(index + 7, day, story));
    const lowestBefore = Math.min(...before.map((reading) => reading.systolic));
    for (const reading of after) {
      expect(reading.systolic).toBeLessThan(lowestBefore);
      expect(reading.systolic).toBeLessThan(135);
      expect(reading.diastolic).toBeLessThan(88);
    }
    // Two weeks on, most of the way down already; a day on, hardly any.
    expect(bloodPressureAt(0, start + 14, story).systolic).toBeLessThan(bloodPressureAt(0, start, story).systolic - 8);
    expect(bloodPressureAt(0, start + 1, story).systolic).toBeGreaterThanOrEqual(
      bloodPressureAt(0, start, story).systolic - 2,
    );
  });

  it('is normal for a patient whose story is not their hypertension', () => {
    for (const [visit, day] of visits.entries()) {
      const { systolic, diastolic } = bloodPressureAt(visit, day, { hypertensive: false });
      expect(systolic).toBeGreaterThanOrEqual(100);
      expect(systolic).toBeLessThanOrEqual(120);
      expect(diastolic).toBeGreaterThanOrEqual(60);
      expect(diastolic).toBeLessThanOrEqual(80);
    }
  });

  it('is in whole mmHg, as a sphygmomanometer reads, before and after the drug', () => {
    const story = { hypertensive: true, treatmentStartDay: visits[4] };
    for (let day = visits[0]; day <= 0; day += 7) {
      for (const value of Object.values(bloodPressureAt(day, day, story))) expect(Number.isInteger(value)).toBe(true);
      for (const value of Object.values(bloodPressureAt(day, day, { hypertensive: false }))) {
        expect(Number.isInteger(value)).toBe(true);
      }
    }
  });

  it('is the same for the same visit on every call (a fresh start seeds the same history)', () => {
    expect(visits.map((day, visit) => bloodPressureAt(visit, day, untreated))).toEqual(
      visits.map((day, visit) => bloodPressureAt(visit, day, untreated)),
    );
  });
});

describe('bloodPressureAtGoal', () => {
  it('is below the care plan’s 130/80 at any visit, in whole mmHg, so a same-dose renewal fits it', () => {
    for (let visit = 0; visit < 36; visit++) {
      const { systolic, diastolic } = bloodPressureAtGoal(visit);
      expect(Number.isInteger(systolic) && Number.isInteger(diastolic), `visit ${visit}`).toBe(true);
      expect(systolic, `visit ${visit}`).toBeLessThan(130);
      expect(systolic, `visit ${visit}`).toBeGreaterThanOrEqual(110);
      expect(diastolic, `visit ${visit}`).toBeLessThan(80);
      expect(diastolic, `visit ${visit}`).toBeGreaterThanOrEqual(65);
    }
  });
});

describe('calmVitalsAt', () => {
  const all = Array.from({ length: 36 }, (_, visit) => calmVitalsAt(visit));

  it('keeps a well outpatient in calm, unflagged ranges', () => {
    for (const vitals of all) {
      expect(vitals.temperature).toBeGreaterThanOrEqual(36.3);
      expect(vitals.temperature).toBeLessThanOrEqual(37.1);
      expect(Math.round(vitals.temperature * 10) / 10).toBe(vitals.temperature);
      expect(vitals.heartRate).toBeGreaterThanOrEqual(60);
      expect(vitals.heartRate).toBeLessThanOrEqual(85);
      expect(vitals.respiratoryRate).toBeGreaterThanOrEqual(12);
      expect(vitals.respiratoryRate).toBeLessThanOrEqual(18);
      expect(vitals.oxygen).toBeGreaterThanOrEqual(95);
      expect(vitals.oxygen).toBeLessThanOrEqual(99);
      for (const value of [vitals.heartRate, vitals.respiratoryRate, vitals.oxygen]) {
        expect(Number.isInteger(value)).toBe(true);
      }
    }
  });

  it('varies a little from one month to the next, not in swings', () => {
    for (let visit = 1; visit < all.length; visit++) {
      const [before, now] = [all[visit - 1], all[visit]];
      expect(Math.abs(now.temperature - before.temperature)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(now.heartRate - before.heartRate)).toBeLessThanOrEqual(10);
      expect(Math.abs(now.respiratoryRate - before.respiratoryRate)).toBeLessThanOrEqual(2);
      expect(Math.abs(now.oxygen - before.oxygen)).toBeLessThanOrEqual(2);
    }
    expect(new Set(all.map((vitals) => vitals.temperature)).size).toBeGreaterThan(1);
  });
});
