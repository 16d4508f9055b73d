import { errors } from '../fhir/fhirError';
import { elementIdProblem, snapshotLimits, type SnapshotLimits } from './snapshot/snapshotLimits';

/**
 * Refuses (422, too-costly) a StructureDefinition larger than any profile needs: more snapshot or
 * differential elements, or element ids and paths deeper or longer, than snapshotLimits.ts allows.
 *
 * A snapshot generated from a differential is bounded while it is built, but one uploaded
 * ready-made was stored as given: half a million elements, or paths thousands of levels deep, were
 * then loaded, compiled into validators and forms on every later request of the project that used
 * the profile. The numbers are the generator's, so a generated profile is always accepted when it
 * is saved again. Run before the schema validation, which would walk every element first.
 *
 * `definition` is unchecked JSON: parts of the wrong shape are left to the schema validation.
 */
export function checkStructureDefinitionSize(
  definition: Record<string, unknown>,
  limits: SnapshotLimits = snapshotLimits,
): void {
  checkElements(definition.snapshot, 'snapshot', limits.maxElements, limits);
  checkElements(definition.differential, 'differential', limits.maxDifferentialElements, limits);
}

function checkElements(part: unknown, name: string, maxElements: number, limits: SnapshotLimits): void {
  const elements = isObject(part) ? part.element : undefined;
  if (!Array.isArray(elements)) return;
  const field = `StructureDefinition.${name}.element`;
  if (elements.length > maxElements) {
    throw errors.tooCostly(`The ${name} has ${elements.length} elements; at most ${maxElements} are allowed`, field);
  }
  for (const [index, element] of elements.entries()) {
    if (!isObject(element)) continue;
    for (const key of ['id', 'path'] as const) {
      const value = element[key];
      const problem = typeof value === 'string' ? elementIdProblem(value, limits) : undefined;
      if (problem) throw errors.tooCostly(problem, `${field}[${index}].${key}`);
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
