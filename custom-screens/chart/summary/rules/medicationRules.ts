import type { MedicationRequest, Patient, Reference } from '@medplum/fhirtypes';
import {
  DEFAULT_MEDICATION_INTENT,
  MEDICATION_REQUEST_STATUSES,
  type MedicationRequestStatus,
} from '../../../../config/clinical/medicationStatus';
import { medicationNameOf } from '../../medicationName';
import type { ReferenceNames } from '../../referenceNames';
import { chosenConceptOf, conceptToSave, type ChosenConcept } from './conceptText';
import type { FieldErrors } from './draftErrors';

export interface MedicationDraft {
  medication: string;
  /** The coded concept the name stands for (a chosen suggestion, or the edited order's own). */
  medicationConcept?: ChosenConcept;
  status: MedicationRequestStatus | '';
}

export const MEDICATION_REQUIRED = 'Medication is required';
export const STATUS_REQUIRED = 'Status is required';
export const NOT_SIGNED_IN = 'Not signed in';
/** A medication added from the summary is one the patient is taking, as allergies and problems start active. */
export const NEW_MEDICATION_STATUS: MedicationRequestStatus = 'active';

// Shared with the Meds tab: one rule for what an order is called.
export { medicationNameOf };

/**
 * The form's draft of an order; `names` name a referenced Medication the search included. A new
 * order starts active; an edited one whose status is none of the choices starts unchosen, so the
 * clinician picks one rather than have it silently replaced.
 */
export function medicationDraftOf(request: MedicationRequest | undefined, names?: ReferenceNames): MedicationDraft {
  const status = request?.status as MedicationRequestStatus | undefined;
  return {
    medication: medicationNameOf(request, names),
    medicationConcept: chosenConceptOf(request?.medicationCodeableConcept),
    status: !request ? NEW_MEDICATION_STATUS : status && MEDICATION_REQUEST_STATUSES.includes(status) ? status : '',
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
  /** The names the form was filled with (a referenced Medication's, included with the search). */
  names?: ReferenceNames,
): { request: MedicationRequest } | { error: string } {
  if (!requester?.reference) return { error: NOT_SIGNED_IN };
  // medication[x] holds one value: an order that points at a Medication keeps pointing at it while
  // its name is unchanged; a renamed or newly chosen medication replaces the reference.
  const { medicationReference, medicationCodeableConcept, ...rest } = existing ?? {};
  const keepsReference =
    !!medicationReference &&
    !medicationCodeableConcept &&
    draft.medication.trim() === medicationNameOf(existing, names);
  const medication: Pick<MedicationRequest, 'medicationReference' | 'medicationCodeableConcept'> = keepsReference
    ? { medicationReference }
    : { medicationCodeableConcept: conceptToSave(draft.medication, draft.medicationConcept) };
  return {
    request: {
      ...rest,
      resourceType: 'MedicationRequest',
      status: draft.status as MedicationRequestStatus,
      intent: existing?.intent ?? DEFAULT_MEDICATION_INTENT,
      subject: existing?.subject ?? patient,
      requester: existing?.requester ?? requester,
      ...medication,
      authoredOn: existing ? existing.authoredOn : now,
    },
  };
}
