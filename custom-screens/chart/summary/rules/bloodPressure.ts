import type { ObservationComponent } from '@medplum/fhirtypes';
import {
  DIASTOLIC,
  LOINC_SYSTEM,
  SYSTOLIC,
  UCUM_SYSTEM,
  type VitalDefinition,
} from '../../../../config/clinical/vitals';
import type { ParsedVital } from './vitalsParsing';

function component(definition: VitalDefinition, value: number): ObservationComponent {
  return {
    code: { coding: [{ system: LOINC_SYSTEM, code: definition.code, display: definition.display }] },
    valueQuantity: { value, unit: definition.unit, system: UCUM_SYSTEM, code: definition.unit },
  };
}

/**
 * The components of one blood pressure Observation (app-spec §5): a component per valid part, so
 * a reading with only the systolic known is still saved; none when neither part is valid.
 */
export function bloodPressureComponents(systolic: ParsedVital, diastolic: ParsedVital): ObservationComponent[] {
  const components: ObservationComponent[] = [];
  if (systolic.kind === 'valid') components.push(component(SYSTOLIC, systolic.value));
  if (diastolic.kind === 'valid') components.push(component(DIASTOLIC, diastolic.value));
  return components;
}
