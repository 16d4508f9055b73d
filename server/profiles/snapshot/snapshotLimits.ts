import { SnapshotError } from './snapshotError';

/**
 * What generating one snapshot may build, and what a StructureDefinition saved with a snapshot of
 * its own may hold (structureDefinitionSize.ts), so that a profile the server generated is always
 * one it accepts. A project admin saves StructureDefinitions (and anyone signed in may POST one to
 * `$snapshot`): a differential naming `Patient.identifier.assigner.identifier.assigner…` a few
 * hundred levels deep unfolded Identifier and Reference at every level, each unfold scanning the
 * whole growing snapshot, and the result was stored as one huge resource — one request held the
 * process for minutes.
 *
 * The loaded definitions need far less: the largest snapshot has 256 elements
 * (ExplanationOfBenefit), the deepest element id 6 parts, the longest id or path 105 characters,
 * the longest differential 188 elements.
 */
export interface SnapshotLimits {
  /** Elements in a generated snapshot (each base definition's and the profile's own). */
  maxElements: number;
  /** Elements in one differential. */
  maxDifferentialElements: number;
  /** Parts of an element id or path (`Patient.identifier.system` has 3). */
  maxIdParts: number;
  /** Characters of an element id or path. */
  maxIdLength: number;
  /** Datatypes and backbones unfolded for one snapshot, over its whole base chain. */
  maxUnfolds: number;
}

export const snapshotLimits: SnapshotLimits = {
  maxElements: 5_000,
  maxDifferentialElements: 2_000,
  maxIdParts: 32,
  maxIdLength: 1_000,
  maxUnfolds: 1_000,
};

/** Why an element id or path is too deep or too long, or undefined when it is within the limits. */
export function elementIdProblem(id: string, limits: SnapshotLimits = snapshotLimits): string | undefined {
  const parts = partsOf(id);
  if (parts > limits.maxIdParts)
    return `Element ${id.slice(0, 80)}… is ${parts} levels deep; at most ${limits.maxIdParts} are allowed`;
  if (id.length > limits.maxIdLength)
    return `Element ${id.slice(0, 80)}… is ${id.length} characters long; at most ${limits.maxIdLength} are allowed`;
  return undefined;
}

/** Counted without `split`: a path of millions of dots would otherwise become millions of strings. */
function partsOf(id: string): number {
  let parts = 1;
  for (let at = id.indexOf('.'); at !== -1; at = id.indexOf('.', at + 1)) parts++;
  return parts;
}

/** The running count of one snapshot generation, shared by the base definitions it builds on the way. */
export class SnapshotBudget {
  private unfolds = 0;

  constructor(readonly limits: SnapshotLimits = snapshotLimits) {}

  checkDifferential(count: number): void {
    if (count > this.limits.maxDifferentialElements)
      throw new SnapshotError(
        `The differential has ${count} elements; at most ${this.limits.maxDifferentialElements} are allowed`,
        'StructureDefinition.differential.element',
      );
  }

  checkId(id: string, expression: string): void {
    const problem = elementIdProblem(id, this.limits);
    if (problem) throw new SnapshotError(problem, expression);
  }

  unfold(expression: string): void {
    if (++this.unfolds > this.limits.maxUnfolds)
      throw new SnapshotError(
        `The snapshot needs more than ${this.limits.maxUnfolds} datatypes unfolded; simplify the differential`,
        expression,
      );
  }

  checkSize(count: number, expression: string): void {
    if (count > this.limits.maxElements)
      throw new SnapshotError(
        `The snapshot would have more than ${this.limits.maxElements} elements; simplify the differential`,
        expression,
      );
  }
}
