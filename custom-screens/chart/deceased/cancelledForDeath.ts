import type { Appointment, CodeableConcept } from '@medplum/fhirtypes';

/**
 * Why the appointment was cancelled: HL7's appointment cancellation reason `pat-dec`, "Patient:
 * Deceased" (the code system behind R4's Appointment.cancelationReason binding), so that schedules
 * and reports can tell these from the patient's or the clinic's own cancellations.
 */
export const PATIENT_DECEASED_CANCELLATION_REASON: CodeableConcept = {
  coding: [
    {
      system: 'http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason',
      code: 'pat-dec',
      display: 'Patient: Deceased',
    },
  ],
  text: 'Patient: Deceased',
};

/**
 * The appointment as it is after cancelling it for the patient's death: the status and the reason
 * change, everything else — participants, times, comments, meta — is kept as it was read, so the
 * update replaces nothing anyone else wrote (the write also sends the version read, If-Match).
 */
export function cancelledForDeath(appointment: Appointment): Appointment {
  return { ...appointment, status: 'cancelled', cancelationReason: PATIENT_DECEASED_CANCELLATION_REASON };
}
