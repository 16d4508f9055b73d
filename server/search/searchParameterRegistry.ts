import type { SearchParameter } from '@medplum/fhirtypes';
import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';

export type SearchParamType =
  'string' | 'token' | 'reference' | 'date' | 'number' | 'quantity' | 'uri' | 'composite' | 'special';

/** One search parameter as it applies to one resource type. */
export interface SearchParamDefinition {
  code: string;
  type: SearchParamType;
  /** The FHIRPath expression restricted to this resource type. */
  expression: string;
  target: string[];
  url?: string;
  /** Id of the SearchParameter resource it came from (runtime parameters only). */
  sourceId?: string;
  /** For composite parameters: each component's parameter URL and its expression relative to an item. */
  components?: CompositeComponent[];
  evaluate(resource: unknown): unknown[];
}

export interface CompositeComponent {
  definition: string;
  evaluate(item: unknown): unknown[];
}

const baseTypes = new Set(['Resource', 'DomainResource']);

/**
 * Keeps, for each resource type, the search parameters that apply to it, with their FHIRPath
 * compiled once. Parameters loaded later (Medplum's, US Core's, an implementer's) replace
 * earlier ones with the same code.
 */
export class SearchParameterRegistry {
  private readonly byType = new Map<string, Map<string, SearchParamDefinition>>();
  private readonly global = new Map<string, SearchParamDefinition>();
  private readonly typeByUrl = new Map<string, SearchParamType>();
  private readonly indexedCache = new Map<string, SearchParamDefinition[]>();
  /** Grows on every change, so that caches built from the registry know when to rebuild. */
  version = 0;

  constructor(parameters: Iterable<SearchParameter> = []) {
    for (const parameter of parameters) this.add(parameter);
  }

  /** Adds (or replaces by code) the parameter for each of its base types. */
  add(parameter: SearchParameter, sourceId?: string): void {
    if (!parameter.code || !parameter.type || !parameter.base) return;
    this.indexedCache.clear();
    this.version++;
    if (parameter.url) this.typeByUrl.set(parameter.url, parameter.type as SearchParamType);
    for (const base of parameter.base) {
      const expression = parameter.expression ? expressionForType(parameter.expression, base) : undefined;
      // Components are evaluated on each item the composite's expression yields, from that item's path.
      const itemPath = expression && /^[A-Za-z]+(\.[A-Za-z]+)*$/.test(expression) ? expression : base;
      const definition: SearchParamDefinition = {
        code: parameter.code,
        type: parameter.type as SearchParamType,
        expression: expression ?? '',
        target: parameter.target ?? [],
        url: parameter.url,
        sourceId,
        evaluate: expression ? compileExpression(expression) : () => [],
        components:
          parameter.type === 'composite'
            ? (parameter.component ?? []).map((component) => ({
                definition: component.definition ?? '',
                evaluate: compileExpression({ base: itemPath, expression: component.expression ?? '' }),
              }))
            : undefined,
      };
      if (baseTypes.has(base)) {
        this.global.set(parameter.code, definition);
      } else {
        let forType = this.byType.get(base);
        if (!forType) {
          forType = new Map();
          this.byType.set(base, forType);
        }
        forType.set(parameter.code, definition);
      }
    }
  }

  /** Forgets the parameters that came from one SearchParameter resource (it was deleted or changed). */
  removeSource(sourceId: string): void {
    this.indexedCache.clear();
    this.version++;
    for (const forType of [this.global, ...this.byType.values()]) {
      for (const [code, definition] of forType) if (definition.sourceId === sourceId) forType.delete(code);
    }
  }

  /** The type of the parameter with this canonical URL (composite components name theirs by URL). */
  typeOfUrl(url: string): SearchParamType | undefined {
    return this.typeByUrl.get(url);
  }

  get(resourceType: string, code: string): SearchParamDefinition | undefined {
    return this.byType.get(resourceType)?.get(code) ?? this.global.get(code);
  }

  /** The parameters whose values are stored in the index tables for this type. */
  forType(resourceType: string): SearchParamDefinition[] {
    let list = this.indexedCache.get(resourceType);
    if (!list) {
      // _id and _lastUpdated live in columns of the resources table, not in index rows.
      const common = [...this.global.values()].filter((p) => p.code !== '_id' && p.code !== '_lastUpdated');
      list = [...common, ...(this.byType.get(resourceType)?.values() ?? [])];
      this.indexedCache.set(resourceType, list);
    }
    return list;
  }

  globalParameters(): SearchParamDefinition[] {
    return [...this.global.values()];
  }
}

function compileExpression(
  expression: string | { base: string; expression: string },
): (resource: unknown) => unknown[] {
  let compiled: ((resource: unknown) => unknown[]) | undefined;
  let failed = false;
  return (resource) => {
    if (failed) return [];
    if (!compiled) {
      try {
        // fhirpath's typings take only a string, but its compile also accepts {base, expression}.
        compiled = fhirpath.compile(expression as string, r4Model) as (resource: unknown) => unknown[];
      } catch {
        // An expression the engine cannot parse indexes nothing rather than breaking every write.
        failed = true;
        return [];
      }
    }
    return compiled(resource);
  };
}

/**
 * Narrows a union expression such as `Patient.name | Practitioner.name` to the branches of one
 * type, and replaces `resolve() is X` (which needs a server round trip) by a reference-string test.
 */
export function expressionForType(expression: string, resourceType: string): string | undefined {
  const branches = splitUnion(expression);
  const kept = baseTypes.has(resourceType)
    ? branches
    : branches.filter((branch) => {
        const head = /^\(?\s*([A-Za-z]+)/.exec(branch)?.[1];
        return head === resourceType || head === 'Resource' || head === 'DomainResource' || head === undefined;
      });
  if (kept.length === 0) return undefined;
  return kept
    .map((branch) => branch.replace(/\.where\(resolve\(\) is ([A-Za-z]+)\)/g, ".where(reference.startsWith('$1/'))"))
    .join(' | ');
}

function splitUnion(expression: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let i = 0; i < expression.length; i++) {
    const char = expression[i];
    if (char === "'" && expression[i - 1] !== '\\') inString = !inString;
    if (inString) continue;
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) {
      parts.push(expression.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(expression.slice(start).trim());
  return parts.filter((part) => part.length > 0);
}
