import { errors, type FhirError } from '../fhir/fhirError';

/**
 * What one expansion ($expand, $validate-code) may cost. Anyone signed in may POST a ValueSet, and
 * a project admin may store ValueSets that include each other: four stored ValueSets each naming
 * the next one 100 times made a million database reads from one request. Terminology read by URL
 * is fetched once per expansion (expansionSource.ts), and these bound the rest.
 *
 * The largest loaded definitions need far less: DICOM's CodeSystem has 3,156 concepts, no
 * ValueSet names more than 18 parts.
 */
export interface ExpansionLimits {
  /** ValueSets and CodeSystems fetched, and include/exclude parts worked through. */
  maxSteps: number;
  /** Codes collected over all the parts (before duplicates are removed). */
  maxCodes: number;
  /** Time all `regex` filters of the expansion may take together. */
  regexMilliseconds: number;
}

export const expansionLimits: ExpansionLimits = { maxSteps: 200, maxCodes: 200_000, regexMilliseconds: 250 };

/** The running count of one expansion; throws 422 (too-costly) once a limit is passed. */
export class ExpansionBudget {
  private steps = 0;
  private codes = 0;
  private regexUsed = 0;

  constructor(
    private readonly name: string,
    private readonly limits: ExpansionLimits = expansionLimits,
  ) {}

  step(): void {
    if (++this.steps > this.limits.maxSteps)
      throw errors.tooCostly(
        `Cannot expand ${this.name}: it needs more than ${this.limits.maxSteps} value sets, code systems and compose parts`,
      );
  }

  addCodes(count: number): void {
    this.codes += count;
    if (this.codes > this.limits.maxCodes)
      throw errors.tooCostly(`Cannot expand ${this.name}: it collects more than ${this.limits.maxCodes} codes`);
  }

  /** Milliseconds the next regex filter may still take. */
  regexMillisecondsLeft(): number {
    return Math.max(1, this.limits.regexMilliseconds - this.regexUsed);
  }

  regexTook(milliseconds: number): void {
    this.regexUsed += milliseconds;
  }

  regexTooSlow(): FhirError {
    return errors.tooCostly(
      `Cannot expand ${this.name}: its regex filters took longer than ${this.limits.regexMilliseconds} ms; use a simpler pattern`,
    );
  }
}
