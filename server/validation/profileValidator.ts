import type { OperationOutcomeIssue, Resource, StructureDefinition } from '@medplum/fhirtypes';
// The modules themselves, not the schema-engine index (which loads the editor's form model too).
import { buildTypeSchema } from '../../schema-engine/model/buildTypeSchema';
import { SchemaLoader } from '../../schema-engine/loading/schemaLoader';
import { validateResource as validateWithSchema } from '../../schema-engine/validation/validateResource';
import { InvariantBudgetExceeded } from '../../schema-engine/validation/invariants';
import { invariantBudgetMs, invariantRunner } from './invariantBudget';

/** Finds a StructureDefinition by canonical url as the caller sees it (project and access rules apply). */
export type DefinitionFinder = (url: string) => Promise<StructureDefinition | undefined>;

/**
 * Checks a resource against one profile with the schema engine — the same rules the resource editor
 * applies in the browser: cardinality, types, fixed and pattern values, slices and FHIRPath
 * invariants. Datatypes and nested profiles are looked up through `find`, so a profile saved by an
 * implementer takes effect at once. Required bindings are not checked here (no ValueSet lookup yet).
 */
export async function validateAgainstProfile(
  resource: Resource,
  profile: StructureDefinition,
  find: DefinitionFinder,
): Promise<OperationOutcomeIssue[]> {
  const loader = new SchemaLoader({
    structureDefinitions: (urls) => Promise.all(urls.map(find)),
    searchParameters: async () => [],
  });
  try {
    return await validateWithSchema(resource, buildTypeSchema(profile), {
      schemas: loader,
      runInvariant: invariantRunner(),
    });
  } catch (error) {
    if (error instanceof InvariantBudgetExceeded) {
      return [
        {
          severity: 'error',
          code: 'too-costly',
          details: {
            text: `Profile ${profile.url} could not be checked: its invariants took more than ${invariantBudgetMs} ms for this resource`,
          },
          expression: [`${resource.resourceType}.meta.profile`],
        },
      ];
    }
    // A profile the engine cannot use (e.g. an unsupported discriminator) is reported, not thrown.
    return [
      {
        severity: 'error',
        code: 'not-supported',
        details: { text: `Profile ${profile.url} cannot be evaluated: ${(error as Error).message}` },
        expression: [`${resource.resourceType}.meta.profile`],
      },
    ];
  }
}
