import type { ElementDefinition, SearchParameter, StructureDefinition } from '@medplum/fhirtypes';
import type { GraphQLResponse } from '../../data-provider/client';
import type { SchemaSource } from './schemaSource';

/** The one method of FhirClient the source needs (keeps tests and other clients simple). */
export interface GraphqlClient {
  graphql<T = unknown>(
    query: string,
    operationName?: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphQLResponse<T>>;
}

/**
 * The ElementDefinition fields the engine uses, each under a short alias: GraphQL answers every
 * selected field, null when absent, so long names on ~50 mostly-null fields per element would make a
 * large type's schema several times bigger than the data (budget: 150 KB per type on the wire).
 * `path` and `sliceName` are not fetched: both are spelled out in `id`. Type extensions (the FHIR
 * type of System.String elements) are not fetched either: buildTypeSchema knows them by rule.
 * Each entry: [alias, field, sub-selection or nested alias table].
 */
type FieldTable = readonly (readonly [string, string, FieldTable?])[];

const codingFields: FieldTable = [
  ['s', 'system'],
  ['c', 'code'],
  ['d', 'display'],
];
const quantityFields: FieldTable = [
  ['v', 'value'],
  ['u', 'unit'],
  ['s', 'system'],
  ['c', 'code'],
];
const codeableConceptFields: FieldTable = [
  ['c', 'coding', codingFields],
  ['t', 'text'],
];
const identifierFields: FieldTable = [
  ['s', 'system'],
  ['v', 'value'],
  ['t', 'type', codeableConceptFields],
];

/**
 * The fixed[x] / pattern[x] types fetched: those profiles use in practice (R4 core, Medplum and US
 * Core use Uri, Code, String, Boolean, Coding, CodeableConcept and Quantity). Others would cost
 * bytes on every element of every type; docs/schema-engine.md lists this limit.
 */
const fixedTypes: FieldTable = [
  ['u', 'Uri'],
  ['c', 'Code'],
  ['s', 'String'],
  ['b', 'Boolean'],
  ['i', 'Integer'],
  ['d', 'Decimal'],
  ['o', 'Coding', codingFields],
  ['cc', 'CodeableConcept', codeableConceptFields],
  ['q', 'Quantity', quantityFields],
  ['id', 'Identifier', identifierFields],
];
const patternTypes: FieldTable = fixedTypes.filter(([alias]) => ['u', 'c', 's', 'o', 'cc', 'q', 'id'].includes(alias));

const elementFields: FieldTable = [
  ['i', 'id'],
  ['s', 'short'],
  ['n', 'min'],
  ['x', 'max'],
  ['m', 'isModifier'],
  ['y', 'isSummary'],
  ['r', 'contentReference'],
  ['b', 'base', [['x', 'max']]],
  [
    't',
    'type',
    [
      ['c', 'code'],
      ['p', 'profile'],
      ['tp', 'targetProfile'],
    ],
  ],
  [
    'bd',
    'binding',
    [
      ['s', 'strength'],
      ['v', 'valueSet'],
    ],
  ],
  [
    'k',
    'constraint',
    [
      ['k', 'key'],
      ['s', 'severity'],
      ['h', 'human'],
      ['e', 'expression'],
    ],
  ],
  [
    'sl',
    'slicing',
    [
      [
        'd',
        'discriminator',
        [
          ['t', 'type'],
          ['p', 'path'],
        ],
      ],
      ['r', 'rules'],
      ['o', 'ordered'],
    ],
  ],
  ...fixedTypes.map(([alias, type, sub]) => [`f${alias}`, `fixed${type}`, sub] as const),
  ...patternTypes.map(([alias, type, sub]) => [`p${alias}`, `pattern${type}`, sub] as const),
];

function selection(table: FieldTable): string {
  return table
    .map(([alias, field, sub]) => (sub ? `${alias}: ${field} { ${selection(sub)} }` : `${alias}: ${field}`))
    .join(' ');
}

/** Back from aliases to FHIR names, dropping nulls (FHIR JSON has none). */
function unalias(value: unknown, table: FieldTable): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map((v) => unalias(v, table));
  if (!value || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [alias, field, sub] of table) {
    const item = (value as Record<string, unknown>)[alias];
    if (item === null || item === undefined) continue;
    const restored = sub ? unalias(item, sub) : item;
    if (Array.isArray(restored) && restored.length === 0) continue;
    result[field] = restored;
  }
  return result;
}

/** An element from the aliased answer, with `path` and `sliceName` recovered from `id`. */
function restoreElement(raw: unknown): ElementDefinition {
  const element = unalias(raw, elementFields) as ElementDefinition;
  const id = element.id ?? '';
  element.path = id.replace(/:[^.]*/g, '');
  const last = id.split('.').pop() ?? '';
  if (last.includes(':')) element.sliceName = last.slice(last.indexOf(':') + 1);
  return element;
}

/**
 * The StructureDefinition fields the engine uses. `definition`, mappings and examples are left out:
 * they are most of a definition's size and no screen needs them (docs/schema-engine.md, wire size).
 */
export const STRUCTURE_DEFINITION_FIELDS = `resourceType id url name title type kind abstract derivation baseDefinition
  snapshot { element { ${selection(elementFields)} } }`;

function restoreDefinition(raw: StructureDefinition): StructureDefinition {
  const { snapshot, ...rest } = raw;
  const definition = dropNulls(rest) as StructureDefinition;
  const elements = (snapshot as { element?: unknown[] } | null)?.element;
  if (elements?.length) definition.snapshot = { element: elements.map(restoreElement) };
  return definition;
}

export const SEARCH_PARAMETER_FIELDS = 'id url name code type expression description target base';

/** `StructureDefinitionList` by url, newest first, one per url (app-spec §7); aliases batch several urls. */
export function structureDefinitionQuery(count: number): string {
  const variables = Array.from({ length: count }, (_, i) => `$url${i}: String`).join(', ');
  const lists = Array.from(
    { length: count },
    (_, i) =>
      `sd${i}: StructureDefinitionList(url: $url${i}, _sort: "-_lastUpdated", _count: 1) { ${STRUCTURE_DEFINITION_FIELDS} }`,
  ).join('\n');
  return `query StructureDefinitionList(${variables}) {\n${lists}\n}`;
}

/** `SearchParameterList` by base, pages of 100 (data-and-client-layer-spec §9). */
export const SEARCH_PARAMETER_QUERY = `query SearchParameterList($base: String, $count: Int, $offset: Int) {
  SearchParameterList(base: $base, _count: $count, _offset: $offset, _sort: "_id") { ${SEARCH_PARAMETER_FIELDS} }
}`;

/** GraphQL answers null for every absent field; FHIR JSON has no nulls. */
export function dropNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(dropNulls) as T;
  if (value && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === null || item === undefined) continue;
      const cleaned = dropNulls(item);
      if (Array.isArray(cleaned) && cleaned.length === 0) continue;
      result[key] = cleaned;
    }
    return result as T;
  }
  return value;
}

function checkErrors(response: GraphQLResponse): void {
  if (response.errors?.length) throw new Error(response.errors.map((e) => e.message).join('; '));
}

/** A SchemaSource over the server's FHIR GraphQL (`$graphql`) through FhirClient.graphql(). */
export function graphqlSchemaSource(client: GraphqlClient): SchemaSource {
  return {
    async structureDefinitions(urls) {
      if (urls.length === 0) return [];
      const variables = Object.fromEntries(urls.map((url, i) => [`url${i}`, url]));
      const response = await client.graphql<Record<string, StructureDefinition[] | null>>(
        structureDefinitionQuery(urls.length),
        'StructureDefinitionList',
        variables,
      );
      checkErrors(response);
      return urls.map((_, i) => {
        const found = response.data?.[`sd${i}`]?.[0];
        return found ? restoreDefinition(found) : undefined;
      });
    },
    async searchParameters(bases, offset, count) {
      const response = await client.graphql<{ SearchParameterList: SearchParameter[] | null }>(
        SEARCH_PARAMETER_QUERY,
        'SearchParameterList',
        { base: bases.join(','), count, offset },
      );
      checkErrors(response);
      return (response.data?.SearchParameterList ?? []).map((p) => dropNulls(p));
    },
  };
}
