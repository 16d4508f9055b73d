import type { Resource } from '@medplum/fhirtypes';
import type { ElementModel, SearchParameterModel, TypeSchema } from '../model/schemaTypes';
import { choiceKey } from '../model/buildTypeSchema';
import { isFilterableType, unknownSearchParameterTypeMessage } from './filterOperators';

/** What a list column shows: a search parameter's element(s), or an element path. */
export interface SearchColumn {
  /** The field name as kept in the search state (`_lastUpdated`, `name`, `meta.versionId`, `birthdate`). */
  field: string;
  /** Element paths (relative to the type, choice keys spelled out) whose values the cell shows. */
  paths: string[];
  /** Those elements' models, for formatting by type (empty when the schema has none of them). */
  elements: ElementModel[];
  searchParameter?: SearchParameterModel;
  /** Set when the column cannot be filtered (§8: unknown search param type → message in the column menu). */
  filterMessage?: string;
}

/** Fields with a fixed meaning in every list (app-spec §3 search definition). */
const builtInPaths: Record<string, string> = {
  _id: 'id',
  id: 'id',
  _lastUpdated: 'meta.lastUpdated',
  'meta.versionId': 'meta.versionId',
  'meta.lastUpdated': 'meta.lastUpdated',
};

/**
 * The element paths a search parameter's FHIRPath selects on one resource type:
 * `Patient.name | Practitioner.name` → `name` for Patient; `(Observation.value as Quantity)` →
 * `valueQuantity`; `.where(...)` filters keep their element. Unsupported constructs are skipped.
 */
export function searchParameterPaths(expression: string | undefined, resourceType: string): string[] {
  if (!expression) return [];
  const paths: string[] = [];
  for (const raw of splitUnion(expression)) {
    let part = raw.trim();
    // `(X.y as T)` and `X.y.as(T)` select the choice element of that type.
    let asType: string | undefined;
    const asMatch = /^\(?\s*(.+?)\s+as\s+(\w+)\s*\)?$/.exec(part) ?? /^(.+?)\.as\((\w+)\)$/.exec(part);
    if (asMatch) {
      part = asMatch[1].replace(/^\(/, '');
      asType = asMatch[2];
    }
    part = part.replace(/\.where\([^()]*(\([^()]*\))*[^()]*\)/g, '').replace(/\.(first|last)\(\)/g, '');
    const prefix = `${resourceType}.`;
    if (!part.startsWith(prefix) && part !== resourceType) continue;
    const path = part.slice(prefix.length);
    if (!/^[A-Za-z][\w.]*$/.test(path)) continue;
    if (asType) {
      const segments = path.split('.');
      segments[segments.length - 1] = choiceKey(segments[segments.length - 1], asType);
      paths.push(segments.join('.'));
    } else paths.push(path);
  }
  return [...new Set(paths)];
}

function splitUnion(expression: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of expression) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === '|' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** The model of an element path, resolving choice keys (`valueQuantity` → `value[x]`). */
export function findElement(schema: TypeSchema, path: string): ElementModel | undefined {
  const direct = schema.elements.get(path);
  if (direct) return direct;
  for (const element of schema.elements.values()) {
    if (!element.isChoice) continue;
    const stem = element.path.slice(0, -3);
    if (path.startsWith(stem) && element.types.some((t) => choiceKey(stem, t) === path)) return element;
  }
  return undefined;
}

/** A list column for a field: a built-in, a search parameter code, or an element path. */
export function searchColumn(
  schema: TypeSchema,
  field: string,
  searchParameters: readonly SearchParameterModel[] = [],
): SearchColumn {
  const builtIn = builtInPaths[field];
  const parameter = searchParameters.find((p) => p.code === field);
  if (builtIn && (field.startsWith('_') || !parameter)) {
    return { field, paths: [builtIn], elements: [] };
  }
  if (parameter) {
    const paths = searchParameterPaths(parameter.expression, schema.type);
    return {
      field,
      paths,
      elements: paths.map((p) => findElement(schema, p)).filter((e): e is ElementModel => e !== undefined),
      searchParameter: parameter,
      filterMessage: isFilterableType(parameter.type) ? undefined : unknownSearchParameterTypeMessage(parameter.type),
    };
  }
  const element = findElement(schema, field);
  return { field, paths: [field], elements: element ? [element] : [] };
}

/** The values at a dotted path of a resource, arrays flattened (`name.given` → every given name). */
export function valuesAtPath(resource: Resource | Record<string, unknown>, path: string): unknown[] {
  let current: unknown[] = [resource];
  for (const segment of path.split('.')) {
    const next: unknown[] = [];
    for (const item of current) {
      if (!item || typeof item !== 'object') continue;
      const value = (item as Record<string, unknown>)[segment];
      if (Array.isArray(value)) next.push(...value);
      else if (value !== undefined && value !== null) next.push(value);
    }
    current = next;
  }
  return current;
}

/** What a column cell shows: the values of the column's paths, in path order. */
export function columnValues(resource: Resource, column: SearchColumn): unknown[] {
  return column.paths.flatMap((path) => valuesAtPath(resource, path));
}
