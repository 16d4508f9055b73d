import type { CapabilityStatement } from '@medplum/fhirtypes';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { unsupportedSearchParameters } from '../search/searchRequest';
import { resourceTypeNames } from '../validation/fhirJsonSchema';
import { oauthEndpoints } from '../auth/smartDiscovery';

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

interface OperationEntry {
  name: string;
  definition: string;
}

const hl7 = 'http://hl7.org/fhir/OperationDefinition/';
const bulk = 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/';

/** Operations every resource type answers. */
const everyTypeOperations: OperationEntry[] = [
  { name: 'validate', definition: `${hl7}Resource-validate` },
  { name: 'graph', definition: `${hl7}Resource-graph` },
];

/** Operations of one type (server/operations, server/bots, server/realtime, server/terminology). */
const typeOperations: Record<string, OperationEntry[]> = {
  Patient: [
    { name: 'everything', definition: `${hl7}Patient-everything` },
    { name: 'summary', definition: 'http://hl7.org/fhir/uv/ips/OperationDefinition/summary' },
    { name: 'export', definition: `${bulk}patient-export` },
  ],
  Group: [{ name: 'export', definition: `${bulk}group-export` }],
  ValueSet: [
    { name: 'expand', definition: `${hl7}ValueSet-expand` },
    { name: 'validate-code', definition: `${hl7}ValueSet-validate-code` },
  ],
  CodeSystem: [
    { name: 'lookup', definition: `${hl7}CodeSystem-lookup` },
    { name: 'subsumes', definition: `${hl7}CodeSystem-subsumes` },
  ],
  StructureDefinition: [
    { name: 'expand-profile', definition: 'https://hearth-emr.org/fhir/OperationDefinition/expand-profile' },
    { name: 'snapshot', definition: `${hl7}StructureDefinition-snapshot` },
  ],
  Bot: [
    { name: 'execute', definition: 'https://medplum.com/fhir/OperationDefinition/bot-execute' },
    { name: 'deploy', definition: 'https://medplum.com/fhir/OperationDefinition/bot-deploy' },
  ],
  Subscription: [
    {
      name: 'get-ws-binding-token',
      definition:
        'http://hl7.org/fhir/uv/subscriptions-backport/OperationDefinition/backport-subscription-get-ws-binding-token',
    },
  ],
};

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
        security: smartSecurity(baseUrl),
        interaction: [
          { code: 'transaction' },
          { code: 'batch' },
          { code: 'history-system' },
          { code: 'search-system' },
        ],
        compartment: ['http://hl7.org/fhir/CompartmentDefinition/patient'],
        operation: [
          { name: 'export', definition: `${bulk}export` },
          { name: 'graphql', definition: `${hl7}Resource-graphql` },
        ],
        resource: resourceTypeNames().map((type) => ({
          type,
          interaction: interactions.map((code) => ({ code })),
          operation: [...everyTypeOperations, ...(typeOperations[type] ?? [])],
          versioning: 'versioned',
          readHistory: true,
          // PUT to an unknown id creates only for super admins (an id oracle otherwise, docs/security.md
          // item 20): what a client may count on is that it does not.
          updateCreate: false,
          conditionalCreate: true,
          // server/fhir/conditionalOperations.ts: one match is changed, several are 412.
          conditionalUpdate: true,
          conditionalDelete: 'single',
          searchParam: [
            { name: '_id', type: 'token' as const },
            { name: '_lastUpdated', type: 'date' as const },
            ...[...registry.globalParameters(), ...registry.forType(type)]
              // _text, _content, _query are defined for every Resource but refused by search: not advertised.
              .filter(
                (p) =>
                  searchable.has(p.type) &&
                  p.code !== '_id' &&
                  p.code !== '_lastUpdated' &&
                  !unsupportedSearchParameters.has(p.code),
              )
              .map((p) => ({ name: p.code, type: p.type, ...(p.url ? { definition: p.url } : {}) })),
          ].filter((p, index, all) => all.findIndex((q) => q.name === p.name) === index),
        })),
      },
    ],
  } as CapabilityStatement;
}

/** `rest.security`: SMART on FHIR, with the OAuth2 endpoints for clients that read them here. */
function smartSecurity(baseUrl: string) {
  const endpoints = oauthEndpoints(baseUrl);
  const uri = (url: string, valueUri: string) => ({ url, valueUri });
  return {
    // server/cors.ts: any origin, bearer tokens only.
    cors: true,
    service: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
            code: 'SMART-on-FHIR',
            display: 'SMART-on-FHIR',
          },
        ],
        text: 'OAuth2 using SMART-on-FHIR profile (see http://docs.smarthealthit.org)',
      },
    ],
    extension: [
      {
        url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
        extension: [
          uri('authorize', endpoints.authorize),
          uri('token', endpoints.token),
          uri('introspect', endpoints.introspect),
          uri('revoke', endpoints.revoke),
        ],
      },
    ],
  };
}
