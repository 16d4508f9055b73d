import type { Reference, Resource } from '@medplum/fhirtypes';

const PATIENT_REFERENCE_FIELDS = ['patient', 'subject', 'sender'] as const;

/** The Patient id a resource points to through patient, subject or sender, if any. */
export function referencedPatientId(resource: Resource): string | undefined {
  if (resource.resourceType === 'Patient') return undefined;
  const record = resource as unknown as Record<string, unknown>;
  for (const field of PATIENT_REFERENCE_FIELDS) {
    const reference = (record[field] as Reference | undefined)?.reference;
    const match = typeof reference === 'string' ? /^Patient\/([^/]+)$/.exec(reference) : null;
    if (match) return match[1];
  }
  return undefined;
}

/** Row link of app-spec §2.2: `/Patient/{pid}/{type}/{id}` inside a patient, else `/{type}/{id}`. */
export function resourceLink(resource: Resource): string {
  const patientId = referencedPatientId(resource);
  const own = `${resource.resourceType}/${resource.id}`;
  return patientId ? `/Patient/${patientId}/${own}` : `/${own}`;
}
