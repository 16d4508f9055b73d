import { useEffect, useState } from 'react';
import type { Resource } from '@medplum/fhirtypes';
import type { SearchParameterModel } from '../resources/typeSchema';

/**
 * Search-parameter columns whose expression is more than an element path — an extension
 * (`Patient.extension('https://…/favourite-colour').value`, `.value.ofType(string)`,
 * `extension.where(url='…').valueString`), a `where(…)` filter, `first()`, `exists()` — are read by
 * the `fhirpath` engine (HL7/NLM, R4 model), as the server reads them to search. Plain paths
 * (`Patient.birthDate`, `(Observation.value as Quantity)`) keep the schema engine's path walker, which
 * knows the element's type without the engine. The engine is imported on first use (as the
 * questionnaire renderer and the invariants do), so a list whose columns are all plain never loads it.
 */

/** One value a column shows, with its FHIR type (`string`, `Coding`, `dateTime`) when known. */
export interface TypedValue {
  value: unknown;
  type: string | undefined;
}

interface ColumnFhirpath {
  compile(
    path: string,
    model: unknown,
    options: { resolveInternalTypes: false; traceFn?: () => void },
  ): (resource: unknown, context?: Record<string, unknown>) => unknown[];
  types(values: unknown[]): string[];
  resolveInternalTypes(values: unknown[]): unknown[];
}

let loading: Promise<void> | undefined;
let loaded: { fhirpath: ColumnFhirpath; model: unknown } | undefined;

/** Loads the engine once; later calls return the same promise. */
export function loadColumnFhirpath(): Promise<void> {
  loading ??= Promise.all([import('fhirpath'), import('fhirpath/fhir-context/r4')]).then(([fp, r4]) => {
    loaded = {
      fhirpath: ((fp as { default?: unknown }).default ?? fp) as ColumnFhirpath,
      model: (r4 as { default?: unknown }).default ?? r4,
    };
  });
  return loading;
}

/** Whether the engine is loaded, so columns can evaluate expressions synchronously. */
export function isColumnFhirpathLoaded(): boolean {
  return loaded !== undefined;
}

/** `(Type.a.b)`, `Type.a.b`, `(Type.a as T)`, `Type.a.as(T)`: what the path walker reads exactly. */
const PLAIN_PART =
  /^\(?\s*[A-Z]\w*(\.[A-Za-z]\w*)+(\s+as\s+[A-Za-z]\w*)?\s*\)?$|^[A-Z]\w*(\.[A-Za-z]\w*)+\.as\([A-Za-z]\w*\)$/;

/** The union parts of an expression, split at top-level `|` only (a `where` may hold one). */
function unionParts(expression: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (const char of expression) {
    if (char === "'") quoted = !quoted;
    if (!quoted && char === '(') depth++;
    if (!quoted && char === ')') depth--;
    if (!quoted && char === '|' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  return parts.filter(Boolean);
}

/**
 * The FHIRPath expression a column over `field` is read by on `resourceType`, when the field names a
 * search parameter whose expression (its parts for this type) is more than element paths; else
 * undefined, and the column reads element paths. `resolve()` needs a server round trip the engine
 * makes only asynchronously, so such parameters (`subject.where(resolve() is Patient)`) stay with
 * the walker, which shows the reference itself.
 */
export function columnFhirpathExpression(
  field: string,
  resourceType: string,
  parameters: readonly SearchParameterModel[],
): string | undefined {
  if (field.startsWith('_')) return undefined;
  const expression = parameters.find((parameter) => parameter.code === field)?.expression;
  if (!expression) return undefined;
  const parts = unionParts(expression).filter(
    (part) => part.startsWith(`${resourceType}.`) || part.startsWith(`(${resourceType}.`),
  );
  if (parts.length === 0 || parts.every((part) => PLAIN_PART.test(part))) return undefined;
  if (parts.some((part) => /\bresolve\s*\(/.test(part))) return undefined;
  return parts.join(' | ');
}

/** `FHIR.string` → `string`, `FHIR.Coding` → `Coding`; the engine's own System types by their FHIR twin. */
const SYSTEM_TYPES: Record<string, string> = {
  'System.String': 'string',
  'System.Boolean': 'boolean',
  'System.Integer': 'integer',
  'System.Decimal': 'decimal',
  'System.Date': 'date',
  'System.DateTime': 'dateTime',
  'System.Time': 'time',
};

function fhirType(type: string | undefined): string | undefined {
  if (!type) return undefined;
  if (type.startsWith('FHIR.')) return type.slice('FHIR.'.length);
  return SYSTEM_TYPES[type];
}

const compiled = new Map<string, ((resource: Resource) => TypedValue[]) | null>();

/**
 * The values of `expression` on a resource, each with its FHIR type, or undefined while the engine
 * is not loaded (or when it cannot parse the expression). Compiled once per expression. A value the
 * engine cannot evaluate on one resource is no value.
 */
export function fhirpathColumnReader(expression: string): ((resource: Resource) => TypedValue[]) | undefined {
  if (!loaded) return undefined;
  const known = compiled.get(expression);
  if (known !== undefined) return known ?? undefined;
  const { fhirpath, model } = loaded;
  let reader: ((resource: Resource) => TypedValue[]) | null = null;
  try {
    const evaluate = fhirpath.compile(expression, model, { resolveInternalTypes: false, traceFn: () => undefined });
    reader = (resource) => {
      try {
        const nodes = evaluate(resource);
        const types = fhirpath.types(nodes);
        return fhirpath.resolveInternalTypes(nodes).map((value, index) => ({ value, type: fhirType(types[index]) }));
      } catch {
        return [];
      }
    };
  } catch {
    reader = null;
  }
  compiled.set(expression, reader);
  return reader ?? undefined;
}

/** Whether any of the columns is read by the engine. */
export function columnsNeedFhirpath(
  fields: readonly string[],
  resourceType: string | undefined,
  parameters: readonly SearchParameterModel[] | undefined,
): boolean {
  if (!resourceType || !parameters?.length) return false;
  return fields.some((field) => columnFhirpathExpression(field, resourceType, parameters) !== undefined);
}

/**
 * Loads the engine when a shown column needs it. Returns whether it is loaded: the list computes its
 * cells again when it turns true (the cells of such a column are empty until then).
 */
export function useColumnFhirpath(
  fields: readonly string[],
  resourceType: string | undefined,
  parameters: readonly SearchParameterModel[] | undefined,
): boolean {
  const needed = columnsNeedFhirpath(fields, resourceType, parameters);
  const [ready, setReady] = useState(isColumnFhirpathLoaded);
  useEffect(() => {
    if (!needed || ready) return;
    let live = true;
    loadColumnFhirpath().then(
      () => live && setReady(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [needed, ready]);
  return ready;
}
