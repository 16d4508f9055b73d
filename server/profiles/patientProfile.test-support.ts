import type { StructureDefinition } from '@medplum/fhirtypes';

/**
 * A Patient constraint profile as the profile tests build them: the fixed header of a
 * StructureDefinition, with the given `url` and `name` and whatever differential or snapshot the
 * test is about.
 */
export function patientProfile(
  url: string,
  name: string,
  parts: Pick<StructureDefinition, 'differential' | 'snapshot'>,
): StructureDefinition {
  return {
    resourceType: 'StructureDefinition',
    url,
    name,
    status: 'draft',
    kind: 'resource',
    abstract: false,
    type: 'Patient',
    baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Patient',
    derivation: 'constraint',
    ...parts,
  };
}
