import { UNIT_DISPLAY, type VitalKey } from '../../../../config/clinical/vitals';

/**
 * Hard limits of what a body can measure, in the units the vitals form stores (app-spec §9). They
 * are not reference ranges: a value outside them is a typo, a wrong unit or a swapped field, and
 * once saved it would be flagged, drawn on the trend and shown to the patient in her portal. They
 * are wide enough for newborns (and premature babies) as well as adults, so a real reading is never
 * refused.
 */
export interface VitalLimit {
  /** How the message names the vital (shorter than the field's label where clinicians say so). */
  name: string;
  low: number;
  high: number;
  unit: string;
}

export const VITAL_LIMITS: Readonly<Record<VitalKey, VitalLimit>> = {
  systolic: { name: 'Systolic', low: 50, high: 300, unit: 'mm[Hg]' },
  diastolic: { name: 'Diastolic', low: 20, high: 200, unit: 'mm[Hg]' },
  // Newborns run up to ~200 /min and tachyarrhythmias beyond: 300 leaves room for both.
  heartRate: { name: 'Heart rate', low: 20, high: 300, unit: '/min' },
  temperature: { name: 'Temperature', low: 25, high: 45, unit: 'Cel' },
  respiratoryRate: { name: 'Respiratory rate', low: 4, high: 80, unit: '/min' },
  // A premature newborn from ~20 cm; the tallest people recorded stay below 2.6 m.
  height: { name: 'Height', low: 20, high: 260, unit: 'cm' },
  // The smallest surviving premature babies weigh ~0.25 kg.
  weight: { name: 'Weight', low: 0.2, high: 500, unit: 'kg' },
  // A very premature baby's BMI is ~5 (0.5 kg at 30 cm); 200 is beyond the heaviest recorded.
  bmi: { name: 'BMI', low: 5, high: 200, unit: 'kg/m2' },
  oxygen: { name: 'Oxygen saturation', low: 50, high: 100, unit: '%' },
  // Premature newborns from ~20 cm; severe hydrocephalus can pass 80 cm.
  headCircumference: { name: 'Head circumference', low: 15, high: 90, unit: 'cm' },
};

export const DIASTOLIC_NOT_BELOW_SYSTOLIC_MESSAGE = 'Diastolic must be lower than systolic';

function unitText(unit: string): string {
  return UNIT_DISPLAY[unit] ?? unit;
}

/** One decimal, as a thermometer shows it: 37.0, not 37. */
function celsiusText(fahrenheit: number): string {
  return (Math.round((((fahrenheit - 32) * 5) / 9) * 10) / 10).toFixed(1);
}

/**
 * A temperature typed in °F into the °C field (98.6): said as such, with the °C to enter instead,
 * when the value read as °F falls within the °C limits; otherwise undefined.
 */
export function fahrenheitHint(value: number): string | undefined {
  const { low, high } = VITAL_LIMITS.temperature;
  const celsius = ((value - 32) * 5) / 9;
  if (value >= low && value <= high) return undefined;
  if (celsius < low || celsius > high) return undefined;
  return `Temperature ${value} looks like °F: enter °C (${celsiusText(value)})`;
}

/** The message under a vital's field when its value cannot be a measurement of a body, else undefined. */
export function vitalLimitMessage(key: VitalKey, value: number): string | undefined {
  const limit = VITAL_LIMITS[key];
  if (value >= limit.low && value <= limit.high) return undefined;
  const hint = key === 'temperature' ? fahrenheitHint(value) : undefined;
  return hint ?? `${limit.name} must be between ${limit.low} and ${limit.high} ${unitText(limit.unit)}`;
}

/** The blood pressure pair: the diastolic (the pressure between beats) is always below the systolic. */
export function bloodPressurePairMessage(systolic: number, diastolic: number): string | undefined {
  return diastolic < systolic ? undefined : DIASTOLIC_NOT_BELOW_SYSTOLIC_MESSAGE;
}

/**
 * The messages for typed values that cannot be real, by field: each value against its limits, then
 * a blood pressure whose two parts are each possible against each other (shown under the diastolic,
 * the second of the pair). Vitals not given are not checked.
 */
export function implausibleVitals(values: Partial<Record<VitalKey, number>>): Partial<Record<VitalKey, string>> {
  const messages: Partial<Record<VitalKey, string>> = {};
  for (const [key, value] of Object.entries(values) as [VitalKey, number][]) {
    const message = vitalLimitMessage(key, value);
    if (message) messages[key] = message;
  }
  const { systolic, diastolic } = values;
  if (systolic !== undefined && diastolic !== undefined && !messages.systolic && !messages.diastolic) {
    const pair = bloodPressurePairMessage(systolic, diastolic);
    if (pair) messages.diastolic = pair;
  }
  return messages;
}
