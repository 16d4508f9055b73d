import type { ElementConstraint } from '../model/schemaTypes';

/**
 * FHIRPath invariants through the `fhirpath` engine with its R4 model. Imported on first use only,
 * so the browser bundle does not carry the engine until a form validates.
 */
interface FhirpathEngine {
  evaluate(
    resource: unknown,
    path: string | { base: string; expression: string },
    context: unknown,
    model: unknown,
    options?: { traceFn?: () => void },
  ): unknown[];
}

let engine: Promise<{ fhirpath: FhirpathEngine; model: unknown }> | undefined;

function loadEngine(): Promise<{ fhirpath: FhirpathEngine; model: unknown }> {
  engine ??= Promise.all([import('fhirpath'), import('fhirpath/fhir-context/r4')]).then(([fp, r4]) => ({
    fhirpath: ((fp as { default?: FhirpathEngine }).default ?? fp) as FhirpathEngine,
    model: (r4 as { default?: unknown }).default ?? r4,
  }));
  return engine;
}

/**
 * Keys checked structurally instead (every element has ele-1, every extension ext-1: "has a value
 * or children" — empty values are dropped by the form and reported by the walker), and ones whose
 * evaluation needs the whole resource graph (dom-3 on contained resources) which is checked by the server's
 * reference handling. dom-6 ("should have narrative") is a best-practice warning every console-made
 * resource would carry: forms do not write narrative.
 */
const SKIPPED = new Set(['ele-1', 'ext-1', 'dom-3', 'dom-6']);

/** Thrown by a `runInvariant` whose time is spent: not a failure of the data, the end of the validation. */
export class InvariantBudgetExceeded extends Error {}

export interface InvariantFailure {
  constraint: ElementConstraint;
}

/**
 * Evaluates constraints on one value. `base` is the value's path without indexes (`Patient.contact`)
 * so the engine knows its type; `resource` is the root for `%resource`.
 */
export async function failedInvariants(
  value: unknown,
  base: string,
  constraints: readonly ElementConstraint[],
  resource: unknown,
  run: (evaluate: () => unknown[]) => unknown[] = (evaluate) => evaluate(),
): Promise<ElementConstraint[]> {
  const relevant = constraints.filter((c) => !SKIPPED.has(c.key));
  if (relevant.length === 0) return [];
  const { fhirpath, model } = await loadEngine();
  const failed: ElementConstraint[] = [];
  for (const constraint of relevant) {
    try {
      const result = run(() =>
        fhirpath.evaluate(
          value,
          { base, expression: constraint.expression },
          { resource, rootResource: resource },
          model,
          // Some invariants call trace(); the console is not a log.
          { traceFn: () => undefined },
        ),
      );
      // An invariant holds when it evaluates to true (or to nothing, which FHIR treats as not failing).
      if (result.length > 0 && result.every((r) => r === false)) failed.push(constraint);
    } catch (error) {
      if (error instanceof InvariantBudgetExceeded) throw error;
      // An expression this engine cannot evaluate is not a failure of the data.
    }
  }
  return failed;
}
