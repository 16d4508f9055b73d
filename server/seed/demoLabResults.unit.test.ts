import type { Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { ASTHMA, HYPERTENSION, PREVENTIVE_CARE, TYPE_2_DIABETES, WELL_CHILD } from './demoClinicalStories';
import { ckdEpi2021, interpretationOf, labResultsFor, rangeGroupOf } from './demoLabResults';

const today = new Date('2026-06-15T12:00:00Z');
const man = { resourceType: 'Patient', gender: 'male', birthDate: '1989-02-24' } as Patient;
const woman = { resourceType: 'Patient', gender: 'female', birthDate: '2000-11-15' } as Patient;
const child = { resourceType: 'Patient', gender: 'male', birthDate: '2018-09-10' } as Patient;
const byName = (results: ReturnType<typeof labResultsFor>) => Object.fromEntries(results.map((r) => [r.name, r]));

describe('labResultsFor', () => {
  it('gives every test a story orders results, each with a value, a reference range and an interpretation', () => {
    for (const story of [HYPERTENSION, TYPE_2_DIABETES, ASTHMA, PREVENTIVE_CARE, WELL_CHILD]) {
      for (const patient of story.ages === 'children' ? [child] : [man, woman]) {
        const results = labResultsFor(story.lab.code, patient, today);
        expect(results.length, story.lab.name).toBeGreaterThan(0);
        for (const result of results) {
          expect(result.code, result.name).toMatch(/^\d+-\d$/);
          expect(Number.isFinite(result.value), result.name).toBe(true);
          expect(result.low !== undefined || result.high !== undefined, result.name).toBe(true);
          expect(result.interpretation, result.name).toBe(interpretationOf(result.value, result.low, result.high));
        }
      }
    }
    expect(labResultsFor('12345-6', man, today)).toEqual([]);
  });

  it('tells the story of each test: an HbA1c above target, a raised LDL, raised eosinophils, a normal panel', () => {
    expect(byName(labResultsFor(TYPE_2_DIABETES.lab.code, woman, today))['Hemoglobin A1c']).toMatchObject({
      code: '4548-4',
      value: 7.2,
      interpretation: 'H',
    });
    const lipids = byName(labResultsFor(PREVENTIVE_CARE.lab.code, man, today));
    expect(lipids['LDL cholesterol (direct)']).toMatchObject({ code: '18262-6', interpretation: 'H' });
    expect(lipids['HDL cholesterol'].interpretation).toBe('N');
    // Total ≈ LDL + HDL + triglycerides / 5 (Friedewald), as one sample's lipids are.
    const friedewald =
      lipids['LDL cholesterol (direct)'].value + lipids['HDL cholesterol'].value + lipids.Triglycerides.value / 5;
    expect(Math.abs(lipids['Cholesterol, total'].value - friedewald)).toBeLessThan(5);

    const count = byName(labResultsFor(ASTHMA.lab.code, man, today));
    expect(count.Eosinophils).toMatchObject({ code: '711-2', interpretation: 'H' });
    const differential = ['Neutrophils', 'Lymphocytes', 'Monocytes', 'Eosinophils', 'Basophils'];
    expect(differential.reduce((sum, name) => sum + count[name].value, 0)).toBeCloseTo(
      count['White blood cells'].value,
      5,
    );

    const panel = labResultsFor(HYPERTENSION.lab.code, man, today);
    expect(panel.map((r) => r.name)).toEqual([
      'Glucose',
      'Urea nitrogen',
      'Creatinine',
      'Sodium',
      'Potassium',
      'Chloride',
      'Carbon dioxide, total',
      'Calcium',
      'eGFR (CKD-EPI 2021)',
    ]);
    expect(panel.every((r) => r.interpretation === 'N')).toBe(true);
  });

  it("uses the patient's own ranges: a woman's creatinine and hemoglobin, a child's blood count", () => {
    const hisCreatinine = byName(labResultsFor(HYPERTENSION.lab.code, man, today)).Creatinine;
    const herCreatinine = byName(labResultsFor(HYPERTENSION.lab.code, woman, today)).Creatinine;
    expect(herCreatinine.high).toBeLessThan(hisCreatinine.high as number);
    const hers = byName(labResultsFor(WELL_CHILD.lab.code, woman, today));
    const his = byName(labResultsFor(WELL_CHILD.lab.code, child, today));
    expect(hers.Hemoglobin.low).toBe(12);
    expect(his.Hemoglobin.low).toBe(11.5);
    for (const count of [hers, his]) {
      const { Hemoglobin: hb, Hematocrit: hct, MCHC: mchc } = count;
      expect((count['Red blood cells'].value * count.MCV.value) / 10).toBeCloseTo(hct.value, 0);
      expect((hb.value / hct.value) * 100).toBeCloseTo(mchc.value, 0);
    }
    expect(rangeGroupOf(child, today)).toBe('child');
    expect(rangeGroupOf({ resourceType: 'Patient' }, today)).toBe('woman');
  });
});

describe('ckdEpi2021', () => {
  it('follows the 2021 equation', () => {
    // 142 × (1.0 / 0.9)^-1.200 × 0.9938^60 for a man of 60 with a creatinine of 1.0 mg/dL.
    expect(ckdEpi2021(1.0, 60, 'male')).toBeCloseTo(86.1, 0);
    // 142 × (0.6 / 0.7)^-0.241 × 0.9938^30 × 1.012 for a woman of 30 with 0.6 mg/dL.
    expect(ckdEpi2021(0.6, 30, 'female')).toBeCloseTo(123.8, 0);
    expect(ckdEpi2021(0.5, 10, 'male')).toBeUndefined();
    expect(ckdEpi2021(1.0, 60, 'unknown')).toBeUndefined();
  });
});
