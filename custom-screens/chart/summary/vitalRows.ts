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

export interface RowLatest {
  /** The parts shown: for blood pressure only those of its newest measurement (a missing part is undefined). */
  parts: { definition: VitalDefinition; reading: VitalReading | undefined }[];
  /** When the newest reading was measured. */
  date?: string;
}

/**
 * A row's newest measurement. Blood pressure parts are read together: a newer panel with only its
 * systolic part shows '131/–', not the diastolic of an older visit beside it.
 */
export function latestOfRow(row: VitalRow, readings: Map<string, VitalReading[]>): RowLatest {
  const last = row.series.map((definition) => ({ definition, reading: readings.get(definition.key)?.at(-1) }));
  const newest = last.reduce<VitalReading | undefined>(
    (found, { reading }) => (reading && (!found || reading.time > found.time) ? reading : found),
    undefined,
  );
  if (!newest) return { parts: last };
  return {
    parts: last.map(({ definition, reading }) => ({
      definition,
      reading:
        reading && (reading.observation === newest.observation || reading.time === newest.time) ? reading : undefined,
    })),
    date: newest.date,
  };
}

/** '120/80 mmHg', '131/– mmHg', '72 /min', or '—' before any reading. */
export function latestValueText(latest: RowLatest): string {
  if (!latest.date) return '—';
  const unit = displayUnit(latest.parts[0]?.definition.unit ?? '');
  return `${latest.parts.map((p) => (p.reading ? displayNumber(p.reading.value) : '–')).join('/')} ${unit}`;
}
