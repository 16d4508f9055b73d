import { useQuery } from '@tanstack/react-query';
import type { Patient, Reference } from '@medplum/fhirtypes';
import { nameOfResource } from '../../data-provider/formatting';
import { useFhirClient } from '../../src/resources/useFhirClient';

/**
 * The patient a `?patient=Patient/{id}` link names, as the picker shows a choice: the reference
 * with the patient's name. Undefined for anything that is not a Patient reference.
 */
export function usePatientChoice(reference: string | null): Reference | undefined {
  const client = useFhirClient();
  const id = reference?.startsWith('Patient/') ? reference.slice('Patient/'.length) : undefined;
  const patient = useQuery<Patient, Error>({
    queryKey: ['hearth-resource', 'Patient', id ?? ''],
    queryFn: () => client.readResource('Patient', id as string),
    enabled: !!id,
    retry: false,
  });
  if (!id) return undefined;
  const display = patient.data ? nameOfResource(patient.data) : undefined;
  return { reference: `Patient/${id}`, ...(display ? { display } : {}) };
}
