import { createContext, useContext } from 'react';
import type { Patient, Reference } from '@medplum/fhirtypes';
import { formatHumanName } from '../../data-provider/formatting';

/** The patient of the open chart (undefined while it loads), for the tabs that prefill it. */
export const ChartPatientContext = createContext<Patient | undefined>(undefined);

export function useChartPatient(): Patient | undefined {
  return useContext(ChartPatientContext);
}

/** `Patient/{id}` with the patient's name as display, as a clinician reads it back. */
export function patientReference(patientId: string, patient: Patient | undefined): Reference {
  const display = patient ? formatHumanName(patient.name?.[0]) : '';
  return display ? { reference: `Patient/${patientId}`, display } : { reference: `Patient/${patientId}` };
}
