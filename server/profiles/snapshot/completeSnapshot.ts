import type { Resource, StructureDefinition } from '@medplum/fhirtypes';
import { errors } from '../../fhir/fhirError';
import type { RepositorySession } from '../../fhir/repository';
import { findStructureDefinition } from '../../operations/structureDefinitionLookup';
import { validateResource } from '../../validation/resourceValidator';
import { generateSnapshot, SnapshotError } from './generateSnapshot';

/**
 * Whether a StructureDefinition is given as a differential only (no snapshot, or an empty one).
 * A definition of the wrong shape is left to the write's validation, which names what is wrong.
 */
export function needsSnapshot(resource: Resource): resource is StructureDefinition {
  if (resource.resourceType !== 'StructureDefinition') return false;
  const definition = resource as StructureDefinition;
  const differential = definition.differential?.element;
  if (definition.snapshot?.element?.length || !Array.isArray(differential) || differential.length === 0) return false;
  return validateResource(resource).length === 0;
}

/**
 * The definition with its snapshot generated from its differential, the base definitions and
 * datatypes looked up as the caller sees them. A differential that cannot be applied is a 400 with
 * the element at fault, so a bad profile is refused when saved, not when first used.
 */
export async function withGeneratedSnapshot(
  session: RepositorySession,
  definition: StructureDefinition,
): Promise<StructureDefinition> {
  try {
    const element = await generateSnapshot(definition, (url) => findStructureDefinition(session, url));
    return { ...definition, snapshot: { ...definition.snapshot, element } };
  } catch (error) {
    if (!(error instanceof SnapshotError)) throw error;
    throw errors.validation([
      {
        severity: 'error',
        code: 'invalid',
        details: { text: `Cannot generate the snapshot: ${error.message}` },
        expression: [error.expression],
      },
    ]);
  }
}
