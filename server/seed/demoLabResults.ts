import type { Patient, Reference, Resource } from '@medplum/fhirtypes';
import { LOINC_SYSTEM, OBSERVATION_CATEGORY_SYSTEM, UCUM_SYSTEM } from '../../config/clinical/vitals';
import { ageOn } from './demoPatientRecord';

/** Whose reference ranges apply: a child's (under 18), a man's, or a woman's (also when the sex is not known). */
export type RangeGroup = 'child' | 'man' | 'woman';

export interface LabResult {
  /** LOINC code and name of the analyte. */
  code: string;
  display: string;
  /** How the result table names it. */
  name: string;
  value: number;
  /** UCUM code; `unit` is how people write it, when that differs. */
  unitCode: string;
  unit?: string;
  low?: number;
  high?: number;
  /** The range as the lab prints it, for one-sided ranges ("< 200 mg/dL"). */
  rangeText?: string;
  interpretation: Interpretation;
}

export type Interpretation = 'L' | 'N' | 'H';

type Analyte = Omit<LabResult, 'interpretation' | 'value' | 'low' | 'high'> & {
  /** The value, and the range when it is not the same for everyone, for each group. */
  value: number | Partial<Record<RangeGroup, number>>;
  low?: number | Partial<Record<RangeGroup, number>>;
  high?: number | Partial<Record<RangeGroup, number>>;
};

const INTERPRETATION_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const INTERPRETATION_DISPLAY: Record<Interpretation, string> = { L: 'Low', N: 'Normal', H: 'High' };

/** The basic metabolic panel of the hypertension story: normal, as at the start of a first antihypertensive. */
const BASIC_METABOLIC_PANEL: Analyte[] = [
  {
    code: '2345-7',
    display: 'Glucose [Mass/volume] in Serum or Plasma',
    name: 'Glucose',
    value: 92,
    unitCode: 'mg/dL',
    low: 70,
    high: 99,
  },
  {
    code: '3094-0',
    display: 'Urea nitrogen [Mass/volume] in Serum or Plasma',
    name: 'Urea nitrogen',
    value: 15,
    unitCode: 'mg/dL',
    low: 7,
    high: 20,
  },
  {
    code: '2160-0',
    display: 'Creatinine [Mass/volume] in Serum or Plasma',
    name: 'Creatinine',
    value: { man: 0.98, woman: 0.78, child: 0.5 },
    unitCode: 'mg/dL',
    low: { man: 0.74, woman: 0.59, child: 0.3 },
    high: { man: 1.35, woman: 1.04, child: 0.7 },
  },
  {
    code: '2951-2',
    display: 'Sodium [Moles/volume] in Serum or Plasma',
    name: 'Sodium',
    value: 140,
    unitCode: 'mmol/L',
    low: 135,
    high: 145,
  },
  {
    code: '2823-3',
    display: 'Potassium [Moles/volume] in Serum or Plasma',
    name: 'Potassium',
    value: 4.5,
    unitCode: 'mmol/L',
    low: 3.5,
    high: 5.1,
  },
  {
    code: '2075-0',
    display: 'Chloride [Moles/volume] in Serum or Plasma',
    name: 'Chloride',
    value: 103,
    unitCode: 'mmol/L',
    low: 98,
    high: 107,
  },
  {
    code: '2028-9',
    display: 'Carbon dioxide, total [Moles/volume] in Serum or Plasma',
    name: 'Carbon dioxide, total',
    value: 25,
    unitCode: 'mmol/L',
    low: 22,
    high: 29,
  },
  {
    code: '17861-6',
    display: 'Calcium [Mass/volume] in Serum or Plasma',
    name: 'Calcium',
    value: 9.5,
    unitCode: 'mg/dL',
    low: 8.6,
    high: 10.3,
  },
];

const EGFR = {
  code: '98979-8',
  display:
    'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI 2021)',
  name: 'eGFR (CKD-EPI 2021)',
  unitCode: 'mL/min/{1.73_m2}',
  unit: 'mL/min/1.73 m²',
  low: 60,
  rangeText: '≥ 60 mL/min/1.73 m²',
};

/** The diabetes story's HbA1c: above target, as the patient's morning sugars of 140 to 180 say. */
const HBA1C: Analyte[] = [
  {
    code: '4548-4',
    display: 'Hemoglobin A1c/Hemoglobin.total in Blood',
    name: 'Hemoglobin A1c',
    value: 7.2,
    unitCode: '%',
    low: 4.0,
    high: 5.6,
  },
];

/** The yearly check-up's lipids: LDL above the desirable level, the rest in range (total ≈ LDL + HDL + TG/5). */
const LIPID_PANEL: Analyte[] = [
  {
    code: '2093-3',
    display: 'Cholesterol [Mass/volume] in Serum or Plasma',
    name: 'Cholesterol, total',
    value: 218,
    unitCode: 'mg/dL',
    high: 200,
    rangeText: '< 200 mg/dL',
  },
  {
    code: '2571-8',
    display: 'Triglyceride [Mass/volume] in Serum or Plasma',
    name: 'Triglycerides',
    value: 138,
    unitCode: 'mg/dL',
    high: 150,
    rangeText: '< 150 mg/dL',
  },
  {
    code: '2085-9',
    display: 'Cholesterol in HDL [Mass/volume] in Serum or Plasma',
    name: 'HDL cholesterol',
    value: 52,
    unitCode: 'mg/dL',
    low: { man: 40, woman: 50, child: 45 },
  },
  {
    code: '18262-6',
    display: 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by Direct assay',
    name: 'LDL cholesterol (direct)',
    value: 138,
    unitCode: 'mg/dL',
    high: 100,
    rangeText: '< 100 mg/dL',
  },
];

/**
 * A normal blood count; the red cell indices agree with each other (Hct = RBC × MCV / 10, Hb =
 * RBC × MCH / 10, MCHC = Hb / Hct), as an analyser's do.
 */
const BLOOD_COUNT: Analyte[] = [
  {
    code: '6690-2',
    display: 'Leukocytes [#/volume] in Blood by Automated count',
    name: 'White blood cells',
    value: 7.4,
    unitCode: '10*3/uL',
    unit: '10³/µL',
    low: 4.5,
    high: { man: 11.0, woman: 11.0, child: 13.5 },
  },
  {
    code: '789-8',
    display: 'Erythrocytes [#/volume] in Blood by Automated count',
    name: 'Red blood cells',
    value: { man: 5.0, woman: 4.5, child: 4.6 },
    unitCode: '10*6/uL',
    unit: '10⁶/µL',
    low: { man: 4.5, woman: 4.0, child: 4.0 },
    high: { man: 5.9, woman: 5.2, child: 5.2 },
  },
  {
    code: '718-7',
    display: 'Hemoglobin [Mass/volume] in Blood',
    name: 'Hemoglobin',
    value: { man: 15.0, woman: 13.5, child: 13.1 },
    unitCode: 'g/dL',
    low: { man: 13.5, woman: 12.0, child: 11.5 },
    high: { man: 17.5, woman: 15.5, child: 15.5 },
  },
  {
    code: '4544-3',
    display: 'Hematocrit [Volume Fraction] of Blood by Automated count',
    name: 'Hematocrit',
    value: { man: 45.0, woman: 40.5, child: 38.6 },
    unitCode: '%',
    low: { man: 41, woman: 36, child: 35 },
    high: { man: 53, woman: 46, child: 45 },
  },
  {
    code: '787-2',
    display: 'MCV [Entitic volume] by Automated count',
    name: 'MCV',
    value: { man: 90, woman: 90, child: 84 },
    unitCode: 'fL',
    low: { man: 80, woman: 80, child: 77 },
    high: { man: 100, woman: 100, child: 95 },
  },
  {
    code: '785-6',
    display: 'MCH [Entitic mass] by Automated count',
    name: 'MCH',
    value: { man: 30.0, woman: 30.0, child: 28.5 },
    unitCode: 'pg',
    low: { man: 27, woman: 27, child: 25 },
    high: 33,
  },
  {
    code: '786-4',
    display: 'MCHC [Mass/volume] by Automated count',
    name: 'MCHC',
    value: { man: 33.3, woman: 33.3, child: 33.9 },
    unitCode: 'g/dL',
    low: 32,
    high: 36,
  },
  {
    code: '788-0',
    display: 'Erythrocyte distribution width [Ratio] by Automated count',
    name: 'RDW',
    value: 13.1,
    unitCode: '%',
    low: 11.5,
    high: 14.5,
  },
  {
    code: '777-3',
    display: 'Platelets [#/volume] in Blood by Automated count',
    name: 'Platelets',
    value: { man: 245, woman: 265, child: 310 },
    unitCode: '10*3/uL',
    unit: '10³/µL',
    low: 150,
    high: 450,
  },
];

const count = (
  code: string,
  display: string,
  name: string,
  value: Analyte['value'],
  low: Analyte['low'],
  high: Analyte['high'],
): Analyte => ({
  code,
  display,
  name,
  value,
  unitCode: '10*3/uL',
  unit: '10³/µL',
  low,
  high,
});

/**
 * The asthma story's count with differential: the eosinophils raised, what tells allergic asthma
 * apart; the differential adds up to the white cell count.
 */
const DIFFERENTIAL: Analyte[] = [
  count(
    '751-8',
    'Neutrophils [#/volume] in Blood by Automated count',
    'Neutrophils',
    { man: 4.1, woman: 4.1, child: 3.4 },
    { man: 1.8, woman: 1.8, child: 1.5 },
    { man: 7.7, woman: 7.7, child: 8.0 },
  ),
  count(
    '731-0',
    'Lymphocytes [#/volume] in Blood by Automated count',
    'Lymphocytes',
    { man: 2.1, woman: 2.1, child: 2.8 },
    { man: 1.0, woman: 1.0, child: 1.5 },
    { man: 4.8, woman: 4.8, child: 6.5 },
  ),
  count('742-7', 'Monocytes [#/volume] in Blood by Automated count', 'Monocytes', 0.5, 0.2, 0.8),
  count('711-2', 'Eosinophils [#/volume] in Blood by Automated count', 'Eosinophils', 0.6, 0.0, 0.5),
  count('704-7', 'Basophils [#/volume] in Blood by Automated count', 'Basophils', 0.1, 0.0, 0.2),
];

/** The results of each test the stories order (demoClinicalStories.ts), by the order's LOINC code. */
const PANELS: Record<string, readonly Analyte[]> = {
  '24321-2': BASIC_METABOLIC_PANEL,
  '4548-4': HBA1C,
  '57698-3': LIPID_PANEL,
  '58410-2': BLOOD_COUNT,
  '57021-8': [...BLOOD_COUNT, ...DIFFERENTIAL],
};

export function rangeGroupOf(patient: Patient, today: Date): RangeGroup {
  if ((ageOn(patient, today) ?? 18) < 18) return 'child';
  return patient.gender === 'male' ? 'man' : 'woman';
}

const forGroup = <T>(value: T | Partial<Record<RangeGroup, T>> | undefined, group: RangeGroup): T | undefined =>
  value !== null && typeof value === 'object' ? (value as Partial<Record<RangeGroup, T>>)[group] : value;

export function interpretationOf(value: number, low: number | undefined, high: number | undefined): Interpretation {
  if (low !== undefined && value < low) return 'L';
  if (high !== undefined && value > high) return 'H';
  return 'N';
}

/**
 * The 2021 CKD-EPI creatinine equation (no race term), in mL/min/1.73 m²; undefined where it does
 * not apply (a child, or a sex other than male or female).
 */
export function ckdEpi2021(creatinine: number, age: number, gender: Patient['gender']): number | undefined {
  if (age < 18 || (gender !== 'male' && gender !== 'female')) return undefined;
  const female = gender === 'female';
  const kappa = female ? 0.7 : 0.9;
  const alpha = female ? -0.241 : -0.302;
  const ratio = creatinine / kappa;
  return 142 * Math.min(ratio, 1) ** alpha * Math.max(ratio, 1) ** -1.2 * 0.9938 ** age * (female ? 1.012 : 1);
}

/** The results the lab reports for this patient's test of `labCode`; none for a test the stories do not order. */
export function labResultsFor(labCode: string, patient: Patient, today: Date): LabResult[] {
  const group = rangeGroupOf(patient, today);
  const results: LabResult[] = (PANELS[labCode] ?? []).map((analyte) => {
    const value = forGroup(analyte.value, group) as number;
    const low = forGroup(analyte.low, group);
    const high = forGroup(analyte.high, group);
    return {
      ...analyte,
      value,
      low,
      high,
      interpretation: interpretationOf(value, low, high),
    };
  });
  const creatinine = results.find((result) => result.code === '2160-0');
  const age = ageOn(patient, today);
  const egfr = creatinine && age !== undefined ? ckdEpi2021(creatinine.value, age, patient.gender) : undefined;
  if (egfr !== undefined) {
    const value = Math.round(egfr);
    results.push({ ...EGFR, value, interpretation: interpretationOf(value, EGFR.low, undefined) });
  }
  return results;
}

type Create = (resource: { resourceType: string } & Record<string, unknown>) => Promise<Resource>;

/**
 * The lab's report of a completed order, as a laboratory system sends it: one final Observation a
 * result (value, reference range, interpretation), then the DiagnosticReport that lists them, both
 * `basedOn` the order. Returns the report.
 */
export async function seedLabReport(fields: {
  create: Create;
  order: Resource;
  patient: Reference;
  lab: { code: string; display: string; name: string };
  results: readonly LabResult[];
  collected: string;
  issued: string;
}): Promise<Resource> {
  const { create, order, patient, lab, collected, issued } = fields;
  const basedOn = [{ reference: `ServiceRequest/${order.id}` }];
  const performer = [{ display: 'Demo Clinic Laboratory' }];
  const references: Reference[] = [];
  for (const result of fields.results) {
    const quantity = (value: number) => ({
      value,
      unit: result.unit ?? result.unitCode,
      system: UCUM_SYSTEM,
      code: result.unitCode,
    });
    const observation = await create({
      resourceType: 'Observation',
      status: 'final',
      basedOn,
      category: [{ coding: [{ system: OBSERVATION_CATEGORY_SYSTEM, code: 'laboratory', display: 'Laboratory' }] }],
      code: { coding: [{ system: LOINC_SYSTEM, code: result.code, display: result.display }], text: result.name },
      subject: patient,
      effectiveDateTime: collected,
      issued,
      performer,
      valueQuantity: quantity(result.value),
      interpretation: [
        {
          coding: [
            {
              system: INTERPRETATION_SYSTEM,
              code: result.interpretation,
              display: INTERPRETATION_DISPLAY[result.interpretation],
            },
          ],
          text: INTERPRETATION_DISPLAY[result.interpretation],
        },
      ],
      referenceRange: [
        {
          ...(result.low !== undefined ? { low: quantity(result.low) } : {}),
          ...(result.high !== undefined ? { high: quantity(result.high) } : {}),
          ...(result.rangeText ? { text: result.rangeText } : {}),
        },
      ],
    });
    references.push({ reference: `Observation/${observation.id}`, display: result.name });
  }
  return create({
    resourceType: 'DiagnosticReport',
    status: 'final',
    basedOn,
    category: [
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB', display: 'Laboratory' }] },
    ],
    code: { coding: [{ system: LOINC_SYSTEM, code: lab.code, display: lab.display }], text: lab.name },
    subject: patient,
    effectiveDateTime: collected,
    issued,
    performer,
    result: references,
  });
}
