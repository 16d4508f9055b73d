import type {
  Attachment,
  Bundle,
  Identifier,
  OperationOutcome,
  Resource,
  ResourceType,
  ValueSet,
} from '@medplum/fhirtypes';
import type {
  BinaryUpload,
  FhirClient,
  GraphQLResponse,
  PatchOperation,
  SearchQuery,
  ValueSetExpandParams,
} from '../client';
import { invalidRequest, withHttpErrors } from './httpErrors';
import { type FhirRecord, toRecord, toResource } from './raRecord';

interface WithSignal {
  signal?: AbortSignal;
}

export interface PatchParams {
  id: string;
  operations: PatchOperation[];
  /**
   * The version the change was made against: sent as a JSON Patch `test` of `/meta/versionId`
   * first, so the server applies nothing (412/400) when the resource moved on meanwhile.
   */
  versionId?: string;
}

export interface ExecuteBotParams {
  /** The Bot's id, or its identifier (`Bot/$execute?identifier=system|value`). */
  bot: string | Identifier;
  body: unknown;
  contentType?: string;
}

/**
 * Calls the screens need beyond react-admin's nine: thin wrappers over the client, each answering
 * `{ data }` and failing with the same HttpErrors as the standard methods. Reached with
 * `useDataProvider<FhirDataProvider>()`.
 */
export interface FhirCustomMethods {
  patch(resource: string, params: PatchParams & WithSignal): Promise<{ data: FhirRecord }>;
  /** The version history Bundle (newest first). */
  history(resource: string, params: { id: string } & WithSignal): Promise<{ data: Bundle }>;
  vread(resource: string, params: { id: string; versionId: string } & WithSignal): Promise<{ data: FhirRecord }>;
  /** A search with raw FHIR parameters; the whole Bundle (includes, links, total). */
  searchBundle(resource: string, params: { query?: SearchQuery } & WithSignal): Promise<{ data: Bundle }>;
  graphql<T = unknown>(params: {
    query: string;
    operationName?: string;
    variables?: Record<string, unknown>;
  }): Promise<{ data: GraphQLResponse<T> }>;
  expandValueSet(params: ValueSetExpandParams & WithSignal): Promise<{ data: ValueSet }>;
  /** `$validate`: the server's verdict on a resource (or form values) without storing it. */
  validate(resource: string, params: { data: Record<string, unknown> }): Promise<{ data: OperationOutcome }>;
  executeBot(params: ExecuteBotParams): Promise<{ data: unknown }>;
  /** Uploads bytes as a Binary and answers the Attachment pointing to it. */
  uploadAttachment(params: BinaryUpload): Promise<{ data: Attachment }>;
}

export function createFhirCustomMethods(client: FhirClient): FhirCustomMethods {
  return {
    patch(resource, { id, operations, versionId, signal }) {
      return withHttpErrors(async () => {
        if (!Array.isArray(operations) || operations.length === 0) {
          throw invalidRequest('A patch needs at least one operation');
        }
        const guarded: PatchOperation[] = versionId
          ? [{ op: 'test', path: '/meta/versionId', value: versionId }, ...operations]
          : operations;
        return { data: toRecord(await client.patchResource(resource as ResourceType, id, guarded, { signal })) };
      });
    },

    history(resource, { id, signal }) {
      return withHttpErrors(async () => ({
        data: (await client.readHistory(resource as ResourceType, id, { signal })) as Bundle,
      }));
    },

    vread(resource, { id, versionId, signal }) {
      return withHttpErrors(async () => ({
        data: toRecord((await client.readVersion(resource as ResourceType, id, versionId, { signal })) as Resource),
      }));
    },

    searchBundle(resource, { query, signal }) {
      return withHttpErrors(async () => ({
        data: (await client.search(resource as ResourceType, query, { signal })) as Bundle,
      }));
    },

    graphql<T = unknown>({ query, operationName, variables }: Parameters<FhirCustomMethods['graphql']>[0]) {
      return withHttpErrors(async () => ({ data: await client.graphql<T>(query, operationName, variables) }));
    },

    expandValueSet({ signal, ...params }) {
      return withHttpErrors(async () => ({ data: await client.valueSetExpand(params, { signal }) }));
    },

    validate(resource, { data }) {
      return withHttpErrors(async () => ({ data: await client.validateResource(toResource(resource, data)) }));
    },

    executeBot({ bot, body, contentType }) {
      return withHttpErrors(async () => ({ data: await client.executeBot(bot, body, contentType) }));
    },

    uploadAttachment(upload) {
      return withHttpErrors(async () => ({ data: await client.createAttachment(upload) }));
    },
  };
}
