import type { Observation, Patient, Reference } from '@medplum/fhirtypes';
import {
  BLOOD_PRESSURE,
  DIASTOLIC,
  LOINC_SYSTEM,
  SINGLE_VITALS,
  SYSTOLIC,
  UCUM_SYSTEM,
  VITAL_SIGNS_CATEGORY,
  VITALS_STATUS,
  type VitalKey,
} from '../../../../config/clinical/vitals';
import { bloodPressureComponents } from './bloodPressure';
import { implausibleVitals } from './vitalLimits';
import { parseVitalInput } from './vitalsParsing';

/** What the clinician typed in the vitals form, one text per field. */
export type VitalsDraft = Partial<Record<VitalKey, string>>;

export interface PlannedVital {
  /** The form fields this Observation carries (both blood pressure parts for the panel). */
  fields: VitalKey[];
  observation: Observation;
}

export type VitalsPlan =
  { ok: true; planned: PlannedVital[] } | { ok: false; errors: Partial<Record<VitalKey, string>>; formError?: string };

export const NOTHING_TO_SAVE_MESSAGE = 'Enter at least one vital sign';

function base(patient: Reference<Patient>, effective: string): Omit<Observation, 'code'> {
  return {
    resourceType: 'Observation',
    status: VITALS_STATUS,
    category: [{ coding: [{ ...VITAL_SIGNS_CATEGORY }] }],
    subject: patient,
    effectiveDateTime: effective,
  };
}

/**
 * The Observations to POST for a vitals draft. Any typed value that is not a number, or not one a
 * body can measure (see vitalLimits), refuses the whole save with a message under its field (so
 * nothing the clinician typed is silently dropped or half saved); blank fields are skipped; blood
 * pressure is one Observation with a component per valid part.
 */
export function planVitals(draft: VitalsDraft, patient: Reference<Patient>, effective: string): VitalsPlan {
  const errors: Partial<Record<VitalKey, string>> = {};
  const parsed = new Map<VitalKey, ReturnType<typeof parseVitalInput>>();
  for (const key of [SYSTOLIC.key, DIASTOLIC.key, ...SINGLE_VITALS.map((v) => v.key)]) {
    const value = parseVitalInput(draft[key]);
    parsed.set(key, value);
    if (value.kind === 'invalid') errors[key] = value.message;
  }
  // Every message at once: a clinician fixing one field should not meet the next only on saving again.
  const numbers: Partial<Record<VitalKey, number>> = {};
  for (const [key, value] of parsed) if (value.kind === 'valid') numbers[key] = value.value;
  Object.assign(errors, implausibleVitals(numbers));
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const planned: PlannedVital[] = [];
  const components = bloodPressureComponents(parsed.get('systolic')!, parsed.get('diastolic')!);
  if (components.length > 0) {
    planned.push({
      fields: ['systolic', 'diastolic'],
      observation: {
        ...base(patient, effective),
        code: {
          coding: [{ system: LOINC_SYSTEM, code: BLOOD_PRESSURE.code, display: BLOOD_PRESSURE.display }],
          text: 'Blood pressure',
        },
        component: components,
      },
    });
  }
  for (const vital of SINGLE_VITALS) {
    const value = parsed.get(vital.key)!;
    if (value.kind !== 'valid') continue;
    planned.push({
      fields: [vital.key],
      observation: {
        ...base(patient, effective),
        code: { coding: [{ system: LOINC_SYSTEM, code: vital.code, display: vital.display }], text: vital.label },
        valueQuantity: { value: value.value, unit: vital.unit, system: UCUM_SYSTEM, code: vital.unit },
      },
    });
  }
  if (planned.length === 0) return { ok: false, errors: {}, formError: NOTHING_TO_SAVE_MESSAGE };
  return { ok: true, planned };
}
