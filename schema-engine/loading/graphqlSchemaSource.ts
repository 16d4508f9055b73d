import type { SearchParameter, StructureDefinition } from '@medplum/fhirtypes';
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

const primitiveValueTypes = [
  'Base64Binary',
  'Boolean',
  'Canonical',
  'Code',
  'Date',
  'DateTime',
  'Decimal',
  'Id',
  'Instant',
  'Integer',
  'Markdown',
  'Oid',
  'PositiveInt',
  'String',
  'Time',
  'UnsignedInt',
  'Uri',
  'Url',
  'Uuid',
];

const coding = 'system version code display userSelected';
const complexValueTypes: Record<string, string> = {
  Coding: coding,
  CodeableConcept: `coding { ${coding} } text`,
  Identifier: 'use system value type { coding { system code } text }',
  Quantity: 'value comparator unit system code',
  Reference: 'reference type display',
  Period: 'start end',
  Range: 'low { value unit system code } high { value unit system code }',
};

function valueFields(prefix: 'fixed' | 'pattern'): string {
  return [
    ...primitiveValueTypes.map((t) => `${prefix}${t}`),
    ...Object.entries(complexValueTypes).map(([t, fields]) => `${prefix}${t} { ${fields} }`),
  ].join(' ');
}

/**
 * The StructureDefinition fields the engine uses. `definition`, mappings and examples are left out:
 * they are most of a definition's size and no screen needs them (docs/schema-engine.md, wire size).
 */
export const STRUCTURE_DEFINITION_FIELDS = `resourceType id url name title type kind abstract derivation baseDefinition
  snapshot { element { id path sliceName short min max isModifier isSummary contentReference
    base { path min max }
    type { code profile targetProfile extension { url valueUrl valueUri } }
    binding { strength valueSet }
    constraint { key severity human expression }
    slicing { discriminator { type path } rules ordered }
    ${valueFields('fixed')}
    ${valueFields('pattern')}
  } }`;

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
        return found ? dropNulls(found) : undefined;
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
