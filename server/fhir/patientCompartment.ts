import { readDefinitionFile } from '../definitions/definitionFiles';
import type { ReferenceRow } from '../search/indexRows';
import { isLiteralReference } from './literalReferences';

interface CompartmentDefinitionFile {
  resource: { code: string; param?: string[] }[];
}

let paramsByType: Map<string, Set<string>> | undefined;

function compartmentParams(resourceType: string): Set<string> | undefined {
  if (!paramsByType) {
    const definition = readDefinitionFile<CompartmentDefinitionFile>('compartmentdefinition-patient.json');
    paramsByType = new Map(definition.resource.map((entry) => [entry.code, new Set(entry.param ?? [])]));
  }
  return paramsByType.get(resourceType);
}

/**
 * The patients whose compartment holds a resource (R4 CompartmentDefinition "patient"):
 * a Patient is in its own, and other types through the listed reference parameters.
 *
 * Only a literal `Patient/{id}` reference counts (the repository stores one of this server's own
 * absolute URLs in that form: serverAddress.ts). `https://other.example/fhir/Patient/{id}` names a
 * patient of another server, not this one's (the index gives an absolute URL no target either,
 * server/search/absoluteReference.ts), and `Foo/1/Patient/{id}` is no literal reference.
 */
export function patientCompartments(resourceType: string, id: string, references: readonly ReferenceRow[]): string[] {
  const result = new Set<string>();
  if (resourceType === 'Patient') result.add(`Patient/${id}`);
  const params = compartmentParams(resourceType);
  if (params) {
    for (const row of references) {
      if (row.target_type === 'Patient' && row.target_id && params.has(row.code) && isLiteralReference(row.reference)) {
        result.add(`Patient/${row.target_id}`);
      }
    }
  }
  return [...result];
}

/** Whether resources of this type can be in a patient's compartment (Patient itself included). */
export function hasPatientCompartment(resourceType: string): boolean {
  return resourceType === 'Patient' || (compartmentParams(resourceType)?.size ?? 0) > 0;
}
