import { useCallback } from 'react';
import type { AllergyIntolerance, MedicationRequest, Patient } from '@medplum/fhirtypes';
import { normalizeErrorString } from '../../../data-provider/outcomes';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { NO_REFERENCE_NAMES, type ReferenceNames } from '../referenceNames';
import { useChartAccess } from '../useChartAccess';
import {
  allergyMessage,
  allergyWarnings,
  checksFor,
  duplicateMessage,
  duplicateOrders,
  medicationNamesOf,
} from './rules/medicationChecks';
import { SUMMARY_COUNT } from './summaryQueries';
import { summaryPage } from './usePatientSummaryData';

/** What the clinician is told before an order is saved; empty lists when nothing was found. */
export interface OrderWarnings {
  /** "Wendy already has an active order for …". */
  duplicates: string[];
  /** "Possible allergy: Allergy to penicillin (Hives) — amoxicillin is a penicillin". */
  allergies: string[];
  /** A check that could not be made, and why: not knowing is said, not taken for "nothing found". */
  unchecked: string[];
}

export const NO_WARNINGS: OrderWarnings = { duplicates: [], allergies: [], unchecked: [] };

export function hasWarnings(warnings: OrderWarnings): boolean {
  return warnings.duplicates.length + warnings.allergies.length + warnings.unchecked.length > 0;
}

/**
 * The checks of an order about to be saved, on the patient's record as the server has it now (not
 * the summary's page, which may be older or hold only the 100 latest): the active orders and the
 * allergies, searched through the client (one batched round trip).
 */
export function useMedicationOrderCheck(patient: Patient) {
  const client = useFhirClient();
  const access = useChartAccess();
  const patientRef = `Patient/${patient.id}`;
  return useCallback(
    async (
      order: MedicationRequest,
      existing: MedicationRequest | undefined,
      /** Names of Medications the summary's orders point at (an edited order keeps its reference). */
      known: ReferenceNames = NO_REFERENCE_NAMES,
    ): Promise<OrderWarnings> => {
      const needs = checksFor(order, existing);
      const warnings: OrderWarnings = { duplicates: [], allergies: [], unchecked: [] };
      const orders = needs.duplicates
        ? client
            .searchResources('MedicationRequest', {
              subject: patientRef,
              status: 'active',
              _count: SUMMARY_COUNT,
              _include: 'MedicationRequest:medication',
            })
            .then(summaryPage)
        : undefined;
      const allergies =
        needs.allergies && access.canSearch('AllergyIntolerance')
          ? client.searchResources('AllergyIntolerance', { patient: patientRef, _count: SUMMARY_COUNT })
          : undefined;
      if (needs.allergies && !allergies) {
        warnings.unchecked.push('Allergies were not checked: your access policy does not include allergies.');
      }
      const [ordersResult, allergiesResult] = await Promise.allSettled([orders, allergies]);
      if (orders && ordersResult.status === 'fulfilled' && ordersResult.value) {
        const { items, names } = ordersResult.value;
        for (const other of duplicateOrders(order, items as MedicationRequest[], names)) {
          warnings.duplicates.push(duplicateMessage(patient, other, names));
        }
      } else if (orders && ordersResult.status === 'rejected') {
        warnings.unchecked.push(
          `Could not check for other active orders: ${normalizeErrorString(ordersResult.reason)}`,
        );
      }
      if (allergies && allergiesResult.status === 'fulfilled' && allergiesResult.value) {
        const found = allergyWarnings(medicationNamesOf(order, known), [
          ...(allergiesResult.value as AllergyIntolerance[]),
        ]);
        warnings.allergies.push(...found.map(allergyMessage));
      } else if (allergies && allergiesResult.status === 'rejected') {
        warnings.unchecked.push(`Could not check allergies: ${normalizeErrorString(allergiesResult.reason)}`);
      }
      return warnings;
    },
    [client, access, patient, patientRef],
  );
}
