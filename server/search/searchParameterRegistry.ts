import type { SearchParameter } from '@medplum/fhirtypes';
import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';
import { castsAsTypeFilters } from './collectionCast';
import { compilePath } from './compiledPath';
import { searchParameterCostIssues } from './searchExpressionCost';

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
  /** The component's expression, evaluated from `itemPath` (the path of the composite's items). */
  expression: string;
  itemPath: string;
  evaluate(item: unknown): unknown[];
}

const baseTypes = new Set(['Resource', 'DomainResource']);

/** A base definition a project's SearchParameter would have replaced (refused on write). */
export interface ShadowedDefinition {
  base: string;
  code: string;
}

/**
 * Keeps, for each resource type, the search parameters that apply to it, with their FHIRPath
 * compiled once. The server has one base registry (the definitions: R4, Medplum's, US Core's,
 * later ones replacing earlier ones with the same code) and, for each project with SearchParameters
 * of its own, a project registry layered on it (`forProject`). A project's parameters apply to that
 * project's searches and index rows only, and never replace a base definition: for a code the base
 * defines, the base definition wins (and such a SearchParameter is refused on write, see
 * `shadowedBy`), so access-policy criteria, subscriptions and searches of every project keep their
 * meaning whatever a project saves.
 */
export class SearchParameterRegistry {
  private readonly byType = new Map<string, Map<string, SearchParamDefinition>>();
  private readonly global = new Map<string, SearchParamDefinition>();
  private readonly typeByUrl = new Map<string, SearchParamType>();
  private readonly indexedCache = new Map<string, SearchParamDefinition[]>();
  private indexedCacheVersion = -1;
  private ownVersion = 0;
  /** The registries of projects with SearchParameters of their own (on the base registry only). */
  private readonly projects = new Map<string, SearchParameterRegistry>();
  /** For a project registry: its SearchParameter resources by id, from which it is built (`rebuild`). */
  private readonly sources = new Map<string, SearchParameter>();

  constructor(
    parameters: Iterable<SearchParameter> = [],
    /** For a project registry: the base registry it is layered on. */
    private readonly base?: SearchParameterRegistry,
    /** For a project registry: its project. */
    readonly projectId?: string,
  ) {
    for (const parameter of parameters) this.add(parameter);
  }

  /** Grows on every change (of this registry or its base), so that caches built from it know when to rebuild. */
  get version(): number {
    return this.ownVersion + (this.base?.version ?? 0);
  }

  /** The base registry (the definitions every project shares). */
  baseRegistry(): SearchParameterRegistry {
    return this.base ?? this;
  }

  /** The registry a project's searches and index rows use: the base one when it has no parameters of its own. */
  forProject(projectId: string | null | undefined): SearchParameterRegistry {
    const root = this.baseRegistry();
    if (!projectId) return root;
    return root.projects.get(projectId) ?? root;
  }

  /** Adds or replaces (by id) one SearchParameter resource of a project. */
  putProjectParameter(projectId: string, parameter: SearchParameter): void {
    const layer = this.projectLayer(projectId);
    layer.sources.set(parameter.id as string, parameter);
    layer.rebuild();
  }

  /**
   * How many of a project's own parameters a write of `base` evaluates beyond the base ones; for
   * `Resource` and `DomainResource` (which apply to every type), the most any type evaluates.
   */
  projectParameterCount(projectId: string, base: string): number {
    const root = this.baseRegistry();
    const layer = root.projects.get(projectId);
    if (!layer) return 0;
    const count = (type: string) => layer.forType(type).length - root.forType(type).length;
    if (!baseTypes.has(base)) return count(base);
    // A type no definition names has the common parameters only.
    return Math.max(count('\u0000'), ...[...layer.byType.keys()].map(count));
  }

  /** Is this SearchParameter resource (by id) one of the project's already? */
  hasProjectParameter(projectId: string, sourceId: string): boolean {
    return this.baseRegistry().projects.get(projectId)?.sources.has(sourceId) ?? false;
  }

  /** The SearchParameter resource (by id) of a project as this registry last learnt it. */
  projectParameter(projectId: string, sourceId: string): SearchParameter | undefined {
    return this.baseRegistry().projects.get(projectId)?.sources.get(sourceId);
  }

  /** Does the base define this code for `base` (a project's parameter of that code adds no work)? */
  baseDefines(base: string, code: string): boolean {
    const root = this.baseRegistry();
    return (baseTypes.has(base) ? root.global.get(code) : root.get(base, code)) !== undefined;
  }

  /**
   * Forgets one SearchParameter resource of a project (deleted): what the base defines applies
   * again, and what the project's other SearchParameters define stays (the layer is rebuilt from
   * them, so a duplicate code saved before duplicates were refused keeps working).
   */
  removeProjectParameter(projectId: string, sourceId: string): void {
    const layer = this.baseRegistry().projects.get(projectId);
    if (!layer?.sources.delete(sourceId)) return;
    layer.rebuild();
  }

  /** Replaces every parameter of a project with `parameters` (as stored: after a change on another process). */
  replaceProjectParameters(projectId: string, parameters: readonly SearchParameter[]): void {
    const layer = this.projectLayer(projectId);
    // Unchanged (the usual answer to a reload after this process's own write): keep the version,
    // so that caches built from the registry (GraphQL schemas, metadata) are not rebuilt for nothing.
    const same =
      parameters.length === layer.sources.size &&
      parameters.every(
        (p) =>
          layer.sources.has(p.id as string) && layer.sources.get(p.id as string)?.meta?.versionId === p.meta?.versionId,
      );
    if (same) return;
    layer.sources.clear();
    for (const parameter of parameters) layer.sources.set(parameter.id as string, parameter);
    layer.rebuild();
  }

  /**
   * Recomputes a project layer from its SearchParameter resources, in a fixed order: of two with
   * one code (left from before duplicates were refused, searchParameterDuplicates.ts), the one last
   * saved longest ago answers, whatever order they were learnt in. Nothing is removed by code alone,
   * which would unregister another SearchParameter resource of the same code.
   */
  private rebuild(): void {
    this.byType.clear();
    this.global.clear();
    this.typeByUrl.clear();
    this.ownVersion++;
    // Newest first: `add` replaces by code, so the one saved longest ago is added last and answers.
    const newestFirst = [...this.sources.values()].sort(
      (a, b) =>
        compareText(b.meta?.lastUpdated ?? '', a.meta?.lastUpdated ?? '') || compareText(b.id ?? '', a.id ?? ''),
    );
    for (const parameter of newestFirst) this.add(parameter, parameter.id);
  }

  /**
   * The base definitions a project's SearchParameter would replace: the same code on one of its
   * base types (or, for `Resource`, a common code). A re-upload of the base definition itself (same
   * URL, type and expression) replaces nothing and is not one.
   */
  shadowedBy(parameter: SearchParameter): ShadowedDefinition[] {
    const root = this.baseRegistry();
    const code = parameter.code;
    if (!code) return [];
    const shadowed: ShadowedDefinition[] = [];
    for (const base of (parameter.base ?? []) as string[]) {
      const existing = baseTypes.has(base) ? root.global.get(code) : root.get(base, code);
      if (!existing) continue;
      const sameDefinition =
        parameter.url === existing.url &&
        parameter.type === existing.type &&
        (parameter.expression ? expressionForType(parameter.expression, base) : '') === existing.expression;
      if (!sameDefinition) shadowed.push({ base, code });
    }
    return shadowed;
  }

  private projectLayer(projectId: string): SearchParameterRegistry {
    const root = this.baseRegistry();
    let layer = root.projects.get(projectId);
    if (!layer) {
      layer = new SearchParameterRegistry([], root, projectId);
      root.projects.set(projectId, layer);
    }
    return layer;
  }

  /** Adds (or replaces by code) the parameter for each of its base types, in this registry. */
  add(parameter: SearchParameter, sourceId?: string): void {
    if (!parameter.code || !parameter.type || !parameter.base) return;
    this.ownVersion++;
    if (parameter.url) this.typeByUrl.set(parameter.url, parameter.type as SearchParamType);
    // A project's parameter saved before its expression was checked on write (searchExpressionCost.ts)
    // stays known but indexes nothing: it would run on every write of its types in the project.
    const refused = this.base !== undefined && searchParameterCostIssues(parameter).length > 0;
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
        evaluate: expression && !refused ? compileExpression(expression) : () => [],
        components:
          parameter.type === 'composite'
            ? (parameter.component ?? []).map((component) => {
                const componentExpression = castsAsTypeFilters(component.expression ?? '');
                return {
                  definition: component.definition ?? '',
                  expression: componentExpression,
                  itemPath,
                  evaluate: refused ? () => [] : compileExpression({ base: itemPath, expression: componentExpression }),
                };
              })
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
    this.ownVersion++;
    for (const forType of [this.global, ...this.byType.values()]) {
      for (const [code, definition] of forType) if (definition.sourceId === sourceId) forType.delete(code);
    }
  }

  /** The type of the parameter with this canonical URL (composite components name theirs by URL). */
  typeOfUrl(url: string): SearchParamType | undefined {
    return this.base?.typeOfUrl(url) ?? this.typeByUrl.get(url);
  }

  get(resourceType: string, code: string): SearchParamDefinition | undefined {
    return this.base?.get(resourceType, code) ?? this.byType.get(resourceType)?.get(code) ?? this.global.get(code);
  }

  /** The parameters whose values are stored in the index tables for this type. */
  forType(resourceType: string): SearchParamDefinition[] {
    if (this.indexedCacheVersion !== this.version) {
      this.indexedCache.clear();
      this.indexedCacheVersion = this.version;
    }
    let list = this.indexedCache.get(resourceType);
    if (!list) {
      // _id and _lastUpdated live in columns of the resources table, not in index rows.
      const common = [...this.global.values()].filter((p) => p.code !== '_id' && p.code !== '_lastUpdated');
      const own = [...common, ...(this.byType.get(resourceType)?.values() ?? [])];
      const base = this.base;
      list = base ? [...base.forType(resourceType), ...own.filter((p) => !base.get(resourceType, p.code))] : own;
      this.indexedCache.set(resourceType, list);
    }
    return list;
  }

  globalParameters(): SearchParamDefinition[] {
    const base = this.base;
    if (!base) return [...this.global.values()];
    return [...base.globalParameters(), ...[...this.global.values()].filter((p) => !base.global.has(p.code))];
  }
}

/**
 * The evaluator of a search parameter's expression: a plain walker for the simple forms
 * (compiledPath.ts), fhirpath.js for the rest and for the inputs the walker leaves to it.
 */
export function compileExpression(
  expression: string | { base: string; expression: string },
  options: { fastPath?: boolean } = {},
): (resource: unknown) => unknown[] {
  const fast = options.fastPath === false ? undefined : compilePath(expression);
  let compiled: ((resource: unknown) => unknown[]) | undefined;
  let failed = false;
  const slow = (resource: unknown): unknown[] => {
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
  if (!fast) return slow;
  return (resource) => fast(resource) ?? slow(resource);
}

/**
 * Narrows a union expression such as `Patient.name | Practitioner.name` to the branches of one
 * type, replaces `resolve() is X` (which needs a server round trip) by a reference-string test,
 * and reads each `as` on a path as `ofType` (collectionCast.ts: R4's `as` on collections).
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
    .map((branch) =>
      castsAsTypeFilters(branch).replace(
        /\.where\(resolve\(\) is ([A-Za-z]+)\)/g,
        ".where(reference.startsWith('$1/'))",
      ),
    )
    .join(' | ');
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
