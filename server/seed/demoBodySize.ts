import type { Observation, Patient } from '@medplum/fhirtypes';

export interface BodySize {
  heightCm: number;
  weightKg: number;
}

/** A measured body size and when it was measured. */
export interface MeasuredBodySize extends BodySize {
  /** Age in years (fractional) at the measurement; undefined when the birth date is unknown. */
  ageAtMeasurement?: number;
}

type Sex = 'male' | 'female';

/**
 * Median height (cm) and weight (kg) by age in years: WHO Child Growth Standards at birth and 1
 * year, CDC 2000 growth charts' 50th percentile from 2 to 18. Growth is taken to stop at 18.
 */
const GROWTH_MEDIANS: Record<Sex, readonly (readonly [age: number, heightCm: number, weightKg: number])[]> = {
  male: [
    [0, 49.9, 3.3],
    [1, 75.7, 9.6],
    [2, 86.5, 12.7],
    [4, 102.5, 16.3],
    [6, 115.7, 20.8],
    [8, 128.1, 25.8],
    [10, 138.8, 32.1],
    [12, 149.3, 40.7],
    [14, 164.1, 51.2],
    [16, 173.6, 61.1],
    [18, 176.2, 67.3],
  ],
  female: [
    [0, 49.1, 3.2],
    [1, 74.0, 8.9],
    [2, 85.0, 12.1],
    [4, 101.0, 15.9],
    [6, 115.0, 20.3],
    [8, 127.8, 25.8],
    [10, 138.2, 33.1],
    [12, 151.5, 41.8],
    [14, 160.5, 49.5],
    [16, 162.6, 54.0],
    [18, 163.1, 56.2],
  ],
};

const YEAR = 365.25 * 24 * 60 * 60 * 1000;
const HEIGHT = '8302-2';
const WEIGHT = '29463-7';
/** How much an overweight adult's weight goes down over the vitals year (lifestyle advice followed). */
const OVERWEIGHT_LOSS = 0.05;
const OVERWEIGHT_BMI = 25;

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Fractional age in years on `day`; undefined without a birth date. */
export function ageInYears(patient: Patient, day: Date): number | undefined {
  if (!patient.birthDate) return undefined;
  return (day.getTime() - Date.parse(patient.birthDate)) / YEAR;
}

/**
 * The median body size at `age` for the patient's sex (the mean of both when it is not male or
 * female; an adult's when the age is unknown), between the table's ages by straight line.
 */
export function medianBodySize(gender: Patient['gender'], age: number | undefined): BodySize {
  const sexes: Sex[] = gender === 'male' || gender === 'female' ? [gender] : ['male', 'female'];
  const sizes = sexes.map((sex) => interpolate(GROWTH_MEDIANS[sex], age ?? Infinity));
  return {
    heightCm: round1(sizes.reduce((sum, size) => sum + size.heightCm, 0) / sizes.length),
    weightKg: round1(sizes.reduce((sum, size) => sum + size.weightKg, 0) / sizes.length),
  };
}

function interpolate(table: (typeof GROWTH_MEDIANS)[Sex], age: number): BodySize {
  const clamped = Math.min(Math.max(age, 0), table[table.length - 1][0]);
  const upper = table.findIndex(([at]) => at >= clamped);
  const [a1, h1, w1] = table[upper];
  if (upper === 0 || a1 === clamped) return { heightCm: h1, weightKg: w1 };
  const [a0, h0, w0] = table[upper - 1];
  const t = (clamped - a0) / (a1 - a0);
  return { heightCm: h0 + (h1 - h0) * t, weightKg: w0 + (w1 - w0) * t };
}

function whenMeasured(observation: Observation): string | undefined {
  return observation.effectiveDateTime ?? observation.effectivePeriod?.start ?? observation.issued;
}

function latestValue(observations: readonly Observation[], code: string, unit: string) {
  return observations
    .filter(
      (o) =>
        o.status !== 'entered-in-error' &&
        o.status !== 'cancelled' &&
        o.code?.coding?.some((c) => c.code === code) &&
        (o.valueQuantity?.code ?? o.valueQuantity?.unit) === unit &&
        typeof o.valueQuantity?.value === 'number' &&
        whenMeasured(o),
    )
    .sort((a, b) => Date.parse(whenMeasured(b) as string) - Date.parse(whenMeasured(a) as string))[0];
}

/**
 * The patient's latest measured height and weight (LOINC 8302-2 in cm, 29463-7 in kg) among the
 * record's Observations, each the newest of its kind; the age is the height's (or the weight's).
 * Undefined when the record has neither; a missing one of the two is the median for the other's
 * age (medianBodySize), so that the BMI stays plausible.
 */
export function latestBodySize(patient: Patient, observations: readonly Observation[]): MeasuredBodySize | undefined {
  const height = latestValue(observations, HEIGHT, 'cm');
  const weight = latestValue(observations, WEIGHT, 'kg');
  const measured = height ?? weight;
  if (!measured) return undefined;
  const ageAtMeasurement = ageInYears(patient, new Date(whenMeasured(measured) as string));
  const median = medianBodySize(patient.gender, ageAtMeasurement);
  return {
    heightCm: round1(height?.valueQuantity?.value ?? median.heightCm),
    weightKg: round1(weight?.valueQuantity?.value ?? median.weightKg),
    ageAtMeasurement,
  };
}

export interface BodySizeVisit extends BodySize {
  bmi: number;
}

/**
 * Height, weight and BMI at each of the vitals history's visits, given each visit's age: from the
 * record's latest measurement when it has one, else the median for age and sex. The first visit
 * continues the record's measurement; a child keeps their place on the growth curve (each value
 * scaled by how much the median grows from the measured age), an adult keeps their height, and an
 * overweight adult loses a little weight over the year. The BMI is the visit's own weight over its
 * height squared.
 */
export function bodySizeSeries(
  patient: Patient,
  measured: MeasuredBodySize | undefined,
  visitAges: readonly (number | undefined)[],
): BodySizeVisit[] {
  const base = measured ?? { ...medianBodySize(patient.gender, visitAges[0]), ageAtMeasurement: visitAges[0] };
  const from = medianBodySize(patient.gender, base.ageAtMeasurement);
  const baseBmi = base.weightKg / (base.heightCm / 100) ** 2;
  const last = Math.max(visitAges.length - 1, 1);
  return visitAges.map((age, visit) => {
    const median = medianBodySize(patient.gender, age ?? base.ageAtMeasurement);
    const heightCm = round1(base.heightCm * (median.heightCm / from.heightCm));
    const loss = baseBmi >= OVERWEIGHT_BMI ? OVERWEIGHT_LOSS * (visit / last) : 0;
    // A small wobble, as scales and clothes give: not at the first visit, which continues the record.
    const wobble = 0.006 * Math.sin(visit * 1.7);
    const weightKg = round1(base.weightKg * (median.weightKg / from.weightKg) * (1 - loss + wobble));
    return { heightCm, weightKg, bmi: round1(weightKg / (heightCm / 100) ** 2) };
  });
}
