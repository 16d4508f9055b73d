import { buildTypeSchema } from '../model/buildTypeSchema';
import type { StructureDefinition } from '@medplum/fhirtypes';
import type { TypeSchema } from '../model/schemaTypes';

/** The base resources with the most elements in R4: the model build for them is the worst case. */
export const LARGEST_BASE_RESOURCES = ['ExplanationOfBenefit', 'Contract'] as const;

/**
 * A function to time: builds the model of a (large) definition `rounds` times from scratch and
 * returns the last one with the milliseconds per build.
 */
export function buildLargestResourceSchema(
  definition: StructureDefinition,
  rounds = 1,
): { schema: TypeSchema; msPerBuild: number } {
  let schema = buildTypeSchema(definition);
  const start = performance.now();
  for (let i = 0; i < rounds; i++) schema = buildTypeSchema(definition);
  return { schema, msPerBuild: (performance.now() - start) / Math.max(rounds, 1) };
}
