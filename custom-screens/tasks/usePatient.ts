import { useQuery } from '@tanstack/react-query';
import type { Patient } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';

/** The patient a reference (`Patient/{id}`) names, for launch context and headings. */
export function usePatient(reference: string | undefined) {
  const client = useFhirClient();
  const id = reference?.startsWith('Patient/') ? reference.slice('Patient/'.length) : undefined;
  return useQuery<Patient, Error>({
    queryKey: ['hearth-resource', 'Patient', id ?? ''],
    queryFn: ({ signal }) => client.readResource('Patient', id as string, { signal }),
    enabled: !!id,
    retry: false,
  });
}
