import {
  DIASTOLIC,
  SINGLE_VITALS,
  SPARKLINE_READINGS,
  SYSTOLIC,
  UNIT_DISPLAY,
  type VitalDefinition,
  type VitalKey,
} from '../../../config/clinical/vitals';
import type { VitalReading } from './rules/vitalReadings';

export interface VitalRow {
  id: string;
  label: string;
  /** One series per drawn line: systolic and diastolic for blood pressure, else the vital itself. */
  series: VitalDefinition[];
}

/** The vitals of the summary in reading order: blood pressure first, as clinicians scan them. */
export const VITAL_ROWS: readonly VitalRow[] = [
  { id: 'bloodPressure', label: 'Blood pressure', series: [SYSTOLIC, DIASTOLIC] },
  ...SINGLE_VITALS.map((vital) => ({ id: vital.key, label: vital.label, series: [vital] })),
];

export function displayUnit(unit: string): string {
  return UNIT_DISPLAY[unit] ?? unit;
}

/** A value for the screen: at most one decimal for computed values such as BMI. */
export function displayNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 10) / 10);
}

/** The last `SPARKLINE_READINGS` readings of a series, oldest first. */
export function recentReadings(readings: Map<VitalKey, VitalReading[]>, key: VitalKey): VitalReading[] {
  return (readings.get(key) ?? []).slice(-SPARKLINE_READINGS);
}
