/**
 * Vital signs of the chart summary (app-spec §3, §5, §9): LOINC codes, UCUM units and the adult
 * reference ranges the trend chart draws. `readCodes` also accepts the other LOINC codes that
 * imported data (Synthea) uses for the same measurement, so existing readings show up.
 */

export const LOINC_SYSTEM = 'http://loinc.org';
export const UCUM_SYSTEM = 'http://unitsofmeasure.org';
export const OBSERVATION_CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const VITAL_SIGNS_CATEGORY = {
  system: OBSERVATION_CATEGORY_SYSTEM,
  code: 'vital-signs',
  display: 'Vital Signs',
} as const;

/** Status of a vital entered in the summary (app-spec §4). */
export const VITALS_STATUS = 'preliminary';

export interface ReferenceRange {
  low: number;
  high: number;
}

export interface VitalDefinition {
  /** Key of the field in the vitals form. */
  key: VitalKey;
  label: string;
  /** LOINC code written on a new Observation. */
  code: string;
  /** LOINC display written with the code. */
  display: string;
  /** Codes recognised when reading Observations (the first is `code`). */
  readCodes: readonly string[];
  unit: string;
  /** Adult reference range; none where it depends on age and sex (height, weight, head size). */
  referenceRange?: ReferenceRange;
}

export type VitalKey =
  | 'systolic'
  | 'diastolic'
  | 'heartRate'
  | 'temperature'
  | 'respiratoryRate'
  | 'height'
  | 'weight'
  | 'bmi'
  | 'oxygen'
  | 'headCircumference';

/** Blood pressure: one Observation (the panel) with a component per part. */
export const BLOOD_PRESSURE = {
  code: '85354-9',
  display: 'Blood pressure panel with all children optional',
  readCodes: ['85354-9', '55284-4'],
  unit: 'mm[Hg]',
} as const;

export const SYSTOLIC: VitalDefinition = {
  key: 'systolic',
  label: 'Systolic',
  code: '8480-6',
  display: 'Systolic blood pressure',
  readCodes: ['8480-6'],
  unit: 'mm[Hg]',
  referenceRange: { low: 90, high: 120 },
};

export const DIASTOLIC: VitalDefinition = {
  key: 'diastolic',
  label: 'Diastolic',
  code: '8462-4',
  display: 'Diastolic blood pressure',
  readCodes: ['8462-4'],
  unit: 'mm[Hg]',
  referenceRange: { low: 60, high: 80 },
};

/** The single-valued vitals, in the order the summary lists them. */
export const SINGLE_VITALS: readonly VitalDefinition[] = [
  {
    key: 'heartRate',
    label: 'Heart rate',
    code: '8867-4',
    display: 'Heart rate',
    readCodes: ['8867-4'],
    unit: '/min',
    referenceRange: { low: 60, high: 100 },
  },
  {
    key: 'temperature',
    label: 'Temperature',
    code: '8310-5',
    display: 'Body temperature',
    readCodes: ['8310-5', '8331-1'],
    unit: 'Cel',
    referenceRange: { low: 36.1, high: 37.2 },
  },
  {
    key: 'respiratoryRate',
    label: 'Respiratory rate',
    code: '9279-1',
    display: 'Respiratory rate',
    readCodes: ['9279-1'],
    unit: '/min',
    referenceRange: { low: 12, high: 20 },
  },
  {
    key: 'height',
    label: 'Height',
    code: '8302-2',
    display: 'Body height',
    readCodes: ['8302-2'],
    unit: 'cm',
  },
  {
    key: 'weight',
    label: 'Weight',
    code: '29463-7',
    display: 'Body weight',
    readCodes: ['29463-7'],
    unit: 'kg',
  },
  {
    key: 'bmi',
    label: 'BMI',
    code: '39156-5',
    display: 'Body mass index (BMI) [Ratio]',
    readCodes: ['39156-5'],
    unit: 'kg/m2',
    referenceRange: { low: 18.5, high: 24.9 },
  },
  {
    key: 'oxygen',
    label: 'Oxygen saturation',
    code: '2708-6',
    display: 'Oxygen saturation in Arterial blood',
    readCodes: ['2708-6', '59408-5'],
    unit: '%',
    referenceRange: { low: 95, high: 100 },
  },
  {
    key: 'headCircumference',
    label: 'Head circumference',
    code: '9843-4',
    display: 'Head Occipital-frontal circumference',
    readCodes: ['9843-4'],
    unit: 'cm',
  },
];

/** How many recent readings a sparkline draws. */
export const SPARKLINE_READINGS = 10;

/** UCUM units as people read them on screen ('mm[Hg]' → 'mmHg'); the stored code stays UCUM. */
export const UNIT_DISPLAY: Readonly<Record<string, string>> = {
  'mm[Hg]': 'mmHg',
  Cel: '°C',
  'kg/m2': 'kg/m²',
  '/min': '/min',
  '%': '%',
  cm: 'cm',
  kg: 'kg',
};
