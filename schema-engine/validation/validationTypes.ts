import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { TypeSchema } from '../model/schemaTypes';

/** Answers whether a code belongs to a ValueSet (required bindings). */
export interface ValueSetCodeLookup {
  /**
   * true / false when the ValueSet is known and does / does not hold the code; undefined when the
   * ValueSet cannot be expanded here (the binding is then not checked, never guessed).
   */
  hasCode(valueSetUrl: string, system: string | undefined, code: string): Promise<boolean | undefined>;
}

/** Where the validator gets the datatypes and profiles the resource's elements need. */
export interface SchemaResolver {
  loadType(type: string): Promise<TypeSchema>;
  loadProfile(url: string): Promise<TypeSchema>;
}

export interface ValidateOptions {
  schemas: SchemaResolver;
  valueSets?: ValueSetCodeLookup;
  /** FHIRPath invariants (constraint expressions); default true. */
  invariants?: boolean;
  /**
   * Runs one invariant's evaluation. The server bounds them in time (a project's profile is
   * written by its admin, and an expression can be exponential); it throws InvariantBudgetExceeded
   * when the time is spent, which stops the validation. The browser evaluates directly.
   */
  runInvariant?: (evaluate: () => unknown[]) => unknown[];
}

export type ValidationIssue = OperationOutcomeIssue & { expression: string[] };
