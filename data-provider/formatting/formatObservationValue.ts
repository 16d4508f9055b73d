import type { Observation, ObservationComponent, Period } from '@medplum/fhirtypes';

import { formatCodeableConcept } from './formatCoding';
import { formatDateTime } from './formatDate';
import { formatPeriod } from './formatPeriod';
import { formatQuantity, formatRange } from './formatQuantity';

/** The value[x] choices (and the reason for a missing one) that an Observation and its components share. */
type ObservationValue = Pick<
  Observation,
  | 'valueQuantity'
  | 'valueCodeableConcept'
  | 'valueString'
  | 'valueBoolean'
  | 'valueInteger'
  | 'valueRange'
  | 'valueRatio'
  | 'valueSampledData'
  | 'valueTime'
  | 'valueDateTime'
  | 'valuePeriod'
  | 'dataAbsentReason'
>;

export interface ObservationValueFormatOptions {
  /** How a dateTime value reads; the report view shows the moment, a summary document the day. */
  dateTime?: (value: string) => string;
  period?: (value: Period) => string;
}

/**
 * 'Hemoglobin 13.2 g/dL' style results: the Observation's own value, then each component's as
 * 'Systolic blood pressure: 120 mmHg' (a blood pressure has only components), joined by '; '.
 * A missing value with a dataAbsentReason says why ('Not performed'), so a row is never blank
 * without a reason.
 */
export function formatObservationValue(observation: Observation, options: ObservationValueFormatOptions = {}): string {
  const own = formatSingleValue(observation, options);
  const components = (observation.component ?? [])
    .map((component: ObservationComponent) => {
      const value = formatSingleValue(component, options);
      return value ? `${formatCodeableConcept(component.code)}: ${value}` : '';
    })
    .filter(Boolean);
  return [own, ...components].filter(Boolean).join('; ');
}

function formatSingleValue(value: ObservationValue, options: ObservationValueFormatOptions): string {
  if (value.valueQuantity) return formatQuantity(value.valueQuantity);
  if (value.valueCodeableConcept) return formatCodeableConcept(value.valueCodeableConcept);
  if (value.valueString !== undefined) return value.valueString;
  if (value.valueBoolean !== undefined) return value.valueBoolean ? 'yes' : 'no';
  if (value.valueInteger !== undefined) return String(value.valueInteger);
  if (value.valueRange) return formatRange(value.valueRange);
  if (value.valueRatio) {
    return `${formatQuantity(value.valueRatio.numerator)} / ${formatQuantity(value.valueRatio.denominator)}`;
  }
  // A waveform's raw samples mean nothing as text; say what it is instead of printing them.
  if (value.valueSampledData) return 'sampled data';
  if (value.valueTime) return value.valueTime;
  if (value.valueDateTime) return (options.dateTime ?? ((v: string) => formatDateTime(v)))(value.valueDateTime);
  if (value.valuePeriod) return (options.period ?? ((p: Period) => formatPeriod(p)))(value.valuePeriod);
  if (value.dataAbsentReason) return formatCodeableConcept(value.dataAbsentReason);
  return '';
}
