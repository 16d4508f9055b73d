import type { Reference, Resource } from '@medplum/fhirtypes';

/**
 * Where a resource created from the chart points at its patient (app-spec §3): Task `for`;
 * MedicationRequest, ServiceRequest, DiagnosticReport, DocumentReference, CarePlan `subject`;
 * Device `patient`; Appointment `participant.actor` in a one-item list.
 */
export const PATIENT_REFERENCE_FIELDS: Readonly<Record<string, string>> = {
  Task: 'for',
  MedicationRequest: 'subject',
  ServiceRequest: 'subject',
  DiagnosticReport: 'subject',
  DocumentReference: 'subject',
  CarePlan: 'subject',
  Device: 'patient',
  Appointment: 'participant.actor',
  // Other types a chart path may name (`/Patient/{id}/Observation/new`): their usual patient field.
  Observation: 'subject',
  Condition: 'subject',
  Encounter: 'subject',
  Communication: 'subject',
  Media: 'subject',
  DeviceRequest: 'subject',
  AllergyIntolerance: 'patient',
  Immunization: 'patient',
  Procedure: 'subject',
  Goal: 'subject',
  QuestionnaireResponse: 'subject',
};

/** The search parameter of the chart's lists: every tab type has `patient` (app-spec §2.3). */
export const PATIENT_SEARCH_PARAMETER = 'patient';

/** A new resource of `resourceType` with the patient already filled in; unknown types get none. */
export function newResourceForPatient(resourceType: string, patient: Reference): Resource {
  const field = PATIENT_REFERENCE_FIELDS[resourceType];
  const resource: Record<string, unknown> = { resourceType };
  if (field === 'participant.actor') {
    // A participant needs a status; "accepted" is what a clinician booking for the patient means.
    resource.participant = [{ actor: patient, status: 'accepted' }];
  } else if (field) {
    resource[field] = patient;
  }
  return resource as unknown as Resource;
}

/** The patient field's name of a type, for messages and tests; undefined when it has none. */
export function patientReferenceField(resourceType: string): string | undefined {
  return PATIENT_REFERENCE_FIELDS[resourceType];
}
