import type { MedicationRequest } from '@medplum/fhirtypes';
import { formatCodeableConcept } from '../../data-provider/formatting';
import { NO_REFERENCE_NAMES, referencedName, type ReferenceNames } from './referenceNames';

/**
 * What an order is for, as the lists and the form show it: its coded medication, else the name its
 * Medication reference carries, else the referenced Medication's own code (included with the
 * search, or contained in the order). Orders imported from other systems — Synthea's among them —
 * point at a Medication resource, often without a display.
 */
export function medicationNameOf(
  request: MedicationRequest | undefined,
  names: ReferenceNames = NO_REFERENCE_NAMES,
): string {
  if (!request) return '';
  return (
    formatCodeableConcept(request.medicationCodeableConcept) ||
    referencedName(request.medicationReference, names, request)
  );
}
