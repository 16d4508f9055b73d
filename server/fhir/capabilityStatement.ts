import type { CapabilityStatement } from '@medplum/fhirtypes';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { resourceTypeNames } from '../validation/fhirJsonSchema';

const interactions = [
  'read',
  'vread',
  'update',
  'patch',
  'delete',
  'history-instance',
  'history-type',
  'create',
  'search-type',
] as const;

/** What this server supports, built from the loaded definitions (so new search parameters show up). */
export function buildCapabilityStatement(
  registry: SearchParameterRegistry,
  baseUrl: string,
  version: string,
): CapabilityStatement {
  const searchable = new Set(['string', 'token', 'reference', 'date', 'number', 'quantity', 'uri']);
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: new Date().toISOString(),
    kind: 'instance',
    software: { name: 'Hearth EMR', version },
    implementation: { description: 'Hearth EMR FHIR R4 server', url: `${baseUrl}fhir/R4` },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'json'],
    patchFormat: ['application/json-patch+json'],
    rest: [
      {
        mode: 'server',
        interaction: [{ code: 'transaction' }, { code: 'batch' }, { code: 'history-system' }],
        resource: resourceTypeNames().map((type) => ({
          type,
          interaction: interactions.map((code) => ({ code })),
          versioning: 'versioned',
          readHistory: true,
          updateCreate: true,
          conditionalCreate: true,
          searchParam: [
            { name: '_id', type: 'token' as const },
            { name: '_lastUpdated', type: 'date' as const },
            ...[...registry.globalParameters(), ...registry.forType(type)]
              .filter((p) => searchable.has(p.type) && p.code !== '_id' && p.code !== '_lastUpdated')
              .map((p) => ({ name: p.code, type: p.type, ...(p.url ? { definition: p.url } : {}) })),
          ].filter((p, index, all) => all.findIndex((q) => q.name === p.name) === index),
        })),
      },
    ],
  } as CapabilityStatement;
}
