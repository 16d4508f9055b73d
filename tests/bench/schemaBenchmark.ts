import {
  SchemaLoader,
  graphqlSchemaSource,
  structureDefinitionQuery,
  buildLargestResourceSchema,
} from '../../schema-engine';
import type { StructureDefinition } from '@medplum/fhirtypes';
import { benchHeaders } from './benchFetch';

/** One type's (or profile's) schema as the browser fetches it: bytes on the wire and model build time. */
export interface SchemaBenchRow {
  name: string;
  url: string;
  wireBytes: number;
  fetchMs: number;
  elements: number;
  buildMs: number;
}

export interface SchemaBenchResult {
  rows: SchemaBenchRow[];
  /** Loading Patient plus every datatype its form needs, through the SchemaLoader (round trips and ms). */
  patientForm: { roundTrips: number; ms: number; types: number };
  /** Patient's search parameters (its own, DomainResource's and Resource's) in pages of 100. */
  patientSearchParameters: { count: number; ms: number };
}

/** The wire-size budget for one type's schema (issue #7). */
export const SCHEMA_WIRE_BUDGET_BYTES = 150 * 1024;

const measured: { name: string; url: string }[] = [
  { name: 'Patient', url: 'http://hl7.org/fhir/StructureDefinition/Patient' },
  { name: 'Observation', url: 'http://hl7.org/fhir/StructureDefinition/Observation' },
  { name: 'Contract', url: 'http://hl7.org/fhir/StructureDefinition/Contract' },
  { name: 'ExplanationOfBenefit', url: 'http://hl7.org/fhir/StructureDefinition/ExplanationOfBenefit' },
  { name: 'US Core Patient', url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient' },
];

async function postGraphql(baseUrl: string, body: unknown): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}fhir/R4/$graphql`, {
    method: 'POST',
    headers: { ...benchHeaders(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`$graphql answered ${response.status}: ${text.slice(0, 300)}`);
  return { text, ms: performance.now() - started };
}

/** Measures the schema engine against a running server (the query the browser sends, unchanged). */
export async function benchSchema(baseUrl: string): Promise<SchemaBenchResult> {
  const rows: SchemaBenchRow[] = [];
  for (const { name, url } of measured) {
    // Once to warm up the server's GraphQL schema and caches, then measured.
    const body = {
      query: structureDefinitionQuery(1),
      operationName: 'StructureDefinitionList',
      variables: { url0: url },
    };
    await postGraphql(baseUrl, body);
    const { text, ms } = await postGraphql(baseUrl, body);
    const parsed = JSON.parse(text) as { data?: { sd0?: StructureDefinition[] }; errors?: { message: string }[] };
    if (parsed.errors?.length) throw new Error(parsed.errors.map((e) => e.message).join('; '));
    const definition = parsed.data?.sd0?.[0];
    if (!definition) throw new Error(`${url} not on the server`);
    // The definition as the browser's loader restores it from this answer.
    const [restored] = await graphqlSchemaSource({
      graphql: async <T>() => parsed as { data?: T },
    }).structureDefinitions([url]);
    const { schema, msPerBuild } = buildLargestResourceSchema(restored as StructureDefinition, 20);
    rows.push({
      name,
      url,
      wireBytes: Buffer.byteLength(text),
      fetchMs: ms,
      elements: schema.elements.size,
      buildMs: msPerBuild,
    });
  }
  const client = {
    graphql: async <T>(query: string, operationName?: string, variables?: Record<string, unknown>) =>
      JSON.parse((await postGraphql(baseUrl, { query, operationName, variables })).text) as { data?: T },
  };
  let roundTrips = 0;
  const source = graphqlSchemaSource(client);
  const counted = {
    structureDefinitions: (urls: readonly string[]) => {
      roundTrips++;
      return source.structureDefinitions(urls);
    },
    searchParameters: source.searchParameters,
  };
  const loader = new SchemaLoader(counted);
  const started = performance.now();
  const patient = await loader.loadType('Patient');
  const types = await loader.loadElementTypes(patient);
  const patientForm = { roundTrips, ms: performance.now() - started, types: types.length + 1 };
  const parametersStarted = performance.now();
  const parameters = await loader.loadSearchParameters('Patient');
  return {
    rows,
    patientForm,
    patientSearchParameters: { count: parameters.length, ms: performance.now() - parametersStarted },
  };
}

export function schemaReport(result: SchemaBenchResult): string[] {
  return [
    '## Schema engine: one type per request',
    '',
    'The `StructureDefinitionList` query the browser sends for one type or profile (schema-engine/loading/graphqlSchemaSource.ts),',
    'against the embedded server; bytes are the JSON body (uncompressed); build is the model build of schema-engine (mean of 20).',
    `Budget: ≤ ${SCHEMA_WIRE_BUDGET_BYTES / 1024} KB per type on the wire.`,
    '',
    '| definition | elements | bytes on the wire | fetch ms | model build ms | budget |',
    '|---|---|---|---|---|---|',
    ...result.rows.map(
      (r) =>
        `| ${r.name} | ${r.elements} | ${(r.wireBytes / 1024).toFixed(1)} KB | ${r.fetchMs.toFixed(0)} | ${r.buildMs.toFixed(2)} | ${r.wireBytes <= SCHEMA_WIRE_BUDGET_BYTES ? '✓' : '✗'} |`,
    ),
    '',
    `Patient's form (Patient + its ${result.patientForm.types - 1} datatypes) through the SchemaLoader: ${result.patientForm.roundTrips} round trips, ${result.patientForm.ms.toFixed(0)} ms.`,
    `Patient's ${result.patientSearchParameters.count} search parameters (SearchParameterList, pages of 100): ${result.patientSearchParameters.ms.toFixed(0)} ms.`,
    '',
  ];
}
