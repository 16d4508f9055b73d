/**
 * The `fhirpath` engine (HL7/NLM) with its R4 model, imported on first use so the browser bundle
 * carries it only when a questionnaire has expressions (as schema-engine's invariants do).
 */
export interface FhirpathEngine {
  evaluate(
    resource: unknown,
    path: string | { base: string; expression: string },
    context: Record<string, unknown>,
    model: unknown,
    options?: { traceFn?: () => void },
  ): unknown[] | Promise<unknown[]>;
}

let engine: Promise<{ fhirpath: FhirpathEngine; model: unknown }> | undefined;

export function loadFhirpath(): Promise<{ fhirpath: FhirpathEngine; model: unknown }> {
  engine ??= Promise.all([import('fhirpath'), import('fhirpath/fhir-context/r4')]).then(([fp, r4]) => ({
    fhirpath: ((fp as { default?: FhirpathEngine }).default ?? fp) as FhirpathEngine,
    model: (r4 as { default?: unknown }).default ?? r4,
  }));
  return engine;
}
