import type { CodeableConcept } from '@medplum/fhirtypes';

/** HL7 v2 table 0276, the reason an appointment is booked: the `appointmentType` binding FHIR R4 suggests. */
export const APPOINTMENT_TYPE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v2-0276';

export interface AppointmentTypeOption {
  code: string;
  display: string;
}

/** The types the front desk chooses among; the displays are the code system's own. */
export const APPOINTMENT_TYPES: readonly AppointmentTypeOption[] = [
  { code: 'ROUTINE', display: 'Routine appointment - default if not valued' },
  { code: 'WALKIN', display: 'A previously unscheduled walk-in visit' },
  { code: 'CHECKUP', display: 'A routine check-up, such as an annual physical' },
  { code: 'FOLLOWUP', display: 'A follow up visit from a previous appointment' },
  { code: 'EMERGENCY', display: 'Emergency appointment' },
];

/** The coded type for `code`, or undefined when none (or an unknown code) was chosen. */
export function appointmentTypeConcept(code: string): CodeableConcept | undefined {
  const option = APPOINTMENT_TYPES.find((candidate) => candidate.code === code);
  return option
    ? { coding: [{ system: APPOINTMENT_TYPE_SYSTEM, code: option.code, display: option.display }] }
    : undefined;
}
