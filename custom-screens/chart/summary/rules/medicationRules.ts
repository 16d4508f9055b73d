import type { MedicationRequest, Patient, Reference } from '@medplum/fhirtypes';
import {
  DEFAULT_MEDICATION_INTENT,
  MEDICATION_REQUEST_STATUSES,
  type MedicationRequestStatus,
} from '../../../../config/clinical/medicationStatus';
import { formatCodeableConcept } from '../../../../data-provider/formatting';
import { conceptFromText } from './conceptText';
import type { FieldErrors } from './draftErrors';

export interface MedicationDraft {
  medication: string;
  status: MedicationRequestStatus | '';
}

export const MEDICATION_REQUIRED = 'Medication is required';
export const STATUS_REQUIRED = 'Status is required';
export const NOT_SIGNED_IN = 'Not signed in';

export function medicationDraftOf(request: MedicationRequest | undefined): MedicationDraft {
  const status = request?.status as MedicationRequestStatus | undefined;
  return {
    medication: request ? formatCodeableConcept(request.medicationCodeableConcept) : '',
    status: status && MEDICATION_REQUEST_STATUSES.includes(status) ? status : '',
  };
}

export function validateMedication(draft: MedicationDraft): FieldErrors<keyof MedicationDraft> {
  return {
    medication: draft.medication.trim() ? undefined : MEDICATION_REQUIRED,
    status: draft.status ? undefined : STATUS_REQUIRED,
  };
}

/**
 * The MedicationRequest to save; the requester is the signed-in profile (app-spec §3), so without
 * one there is nothing to save: `Not signed in`.
 */
export function buildMedicationRequest(
  draft: MedicationDraft,
  patient: Reference<Patient>,
  requester: MedicationRequest['requester'] | undefined,
  existing?: MedicationRequest,
  /** When a new request is written (kept on edits). */
  now: string = new Date().toISOString(),
): { request: MedicationRequest } | { error: string } {
  if (!requester?.reference) return { error: NOT_SIGNED_IN };
  return {
    request: {
      ...existing,
      resourceType: 'MedicationRequest',
      status: draft.status as MedicationRequestStatus,
      intent: existing?.intent ?? DEFAULT_MEDICATION_INTENT,
      subject: existing?.subject ?? patient,
      requester: existing?.requester ?? requester,
      medicationCodeableConcept: conceptFromText(draft.medication, existing?.medicationCodeableConcept),
      authoredOn: existing ? existing.authoredOn : now,
    },
  };
}
