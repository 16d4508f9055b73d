import type {
  CreateParams,
  CreateResult,
  DataProvider,
  DeleteManyParams,
  DeleteManyResult,
  DeleteParams,
  DeleteResult,
  GetListParams,
  GetListResult,
  GetManyParams,
  GetManyReferenceParams,
  GetManyReferenceResult,
  GetManyResult,
  GetOneParams,
  GetOneResult,
  Identifier as RaIdentifier,
  UpdateManyParams,
  UpdateManyResult,
  UpdateParams,
  UpdateResult,
} from 'react-admin';
import type { Bundle, BundleEntry, Resource, ResourceType } from '@medplum/fhirtypes';
import type { FhirClient } from '../client';
import { createFhirCustomMethods, type FhirCustomMethods } from './fhirCustomMethods';
import type { TextSearchParameter } from './filterParameters';
import { invalidRequest, withHttpErrors } from './httpErrors';
import { bundleRecords, listResult, listSearchQuery } from './listSearch';
import { type FhirRecord, toRecord, toResource } from './raRecord';
import type { SortParameterMap } from './sortParameter';
import type { TotalMode } from '../search/searchRequest';

export interface FhirDataProviderOptions {
  /** `_total` of lists that name none in `meta.total`. Default `accurate`. */
  defaultTotal?: TotalMode;
  /** Record fields sorted by a search parameter of another name, per type. */
  sortParameters?: SortParameterMap;
  /** The search parameter of a list's free-text box (`filter.q`). */
  textSearchParameter?: TextSearchParameter;
}

export type FhirDataProvider = DataProvider & FhirCustomMethods;

/** How many ids one `_id=` search names: keeps the request line far below server limits. */
const ID_CHUNK = 100;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `W/"3"` for a versionId, as If-Match wants it. */
function weakETag(versionId: string): string {
  return `W/"${versionId}"`;
}

function versionOf(...records: (Partial<Resource> | undefined)[]): string | undefined {
  for (const record of records) if (record?.meta?.versionId) return record.meta.versionId;
  return undefined;
}

/**
 * Entries of a transaction answer that did not succeed. A transaction either succeeds whole or
 * fails with an OperationOutcome, so this only guards against servers that answer otherwise.
 */
function failedEntries(bundle: Bundle): BundleEntry[] {
  return (bundle.entry ?? []).filter((entry) => !/^2\d\d/.test(entry.response?.status ?? ''));
}

/**
 * react-admin's dataProvider over the FHIR client (issue #6). Lists are FHIR searches; writes are
 * pessimistic by construction (each resolves with what the server stored, never a guess), updates
 * carry If-Match so that a concurrent edit answers 412 instead of being overwritten, and the
 * many-record writes are single transactions (all or nothing). Errors are react-admin HttpErrors
 * carrying the OperationOutcome; aborts pass through untouched.
 */
export function createFhirDataProvider(client: FhirClient, options: FhirDataProviderOptions = {}): FhirDataProvider {
  const readMany = async (resource: string, ids: readonly RaIdentifier[], signal?: AbortSignal) => {
    const unique = [...new Set(ids.map(String))].filter((id) => id.length > 0);
    const bundles = await Promise.all(
      chunks(unique, ID_CHUNK).map((group) =>
        client.search(
          resource as ResourceType,
          new URLSearchParams({ _id: group.join(','), _count: String(group.length) }),
          { signal },
        ),
      ),
    );
    // In the order asked for (the server answers in its own order); ids it did not find are left out.
    const byId = new Map(
      bundles.flatMap((bundle) => bundleRecords(bundle)).map((record) => [String(record.id), record]),
    );
    return unique.flatMap((id) => byId.get(id) ?? []);
  };

  const transaction = async (entries: BundleEntry[]): Promise<Bundle> => {
    const answer = await client.executeBatch({ resourceType: 'Bundle', type: 'transaction', entry: entries });
    const failed = failedEntries(answer);
    if (failed.length > 0) {
      throw invalidRequest(`${failed.length} of ${entries.length} changes failed: ${failed[0].response?.status}`);
    }
    return answer;
  };

  const provider: DataProvider = {
    supportAbortSignal: true,

    getList(resource: string, params: GetListParams): Promise<GetListResult> {
      return withHttpErrors(async () => {
        const { query, total } = listSearchQuery(resource, params, options);
        const bundle = await client.search(resource as ResourceType, query, { signal: params.signal });
        return listResult(bundle, total, params.pagination?.page ?? 1);
      });
    },

    getOne(resource: string, params: GetOneParams): Promise<GetOneResult> {
      return withHttpErrors(async () => {
        const read = await client.readResource(resource as ResourceType, String(params.id), { signal: params.signal });
        return { data: toRecord(read) };
      });
    },

    /** One `_id=a,b,c` search (in groups of 100), not one read per id. */
    getMany(resource: string, params: GetManyParams): Promise<GetManyResult> {
      return withHttpErrors(async () => ({ data: await readMany(resource, params.ids, params.signal) }));
    },

    /**
     * The records whose `target` search parameter points at `id`: `subject=Patient/1` when `id` is a
     * reference, `subject=1` (any type) for a bare id; `target` may carry a type (`subject:Patient`).
     */
    getManyReference(resource: string, params: GetManyReferenceParams): Promise<GetManyReferenceResult> {
      return withHttpErrors(async () => {
        if (!params.target) throw invalidRequest('getManyReference needs the target search parameter');
        const { query, total } = listSearchQuery(resource, params, options);
        query.append(params.target, String(params.id));
        const bundle = await client.search(resource as ResourceType, query, { signal: params.signal });
        return listResult(bundle, total, params.pagination?.page ?? 1);
      });
    },

    create(resource: string, params: CreateParams): Promise<CreateResult> {
      return withHttpErrors(async () => {
        const created = await client.createResource(toResource(resource, params.data));
        return { data: toRecord(created) };
      });
    },

    /** PUT with If-Match from the version that was edited: a newer version on the server answers 412. */
    update(resource: string, params: UpdateParams): Promise<UpdateResult> {
      return withHttpErrors(async () => {
        const versionId = versionOf(params.previousData, params.data);
        const updated = await client.updateResource(toResource(resource, params.data, String(params.id)), {
          headers: versionId ? { 'If-Match': weakETag(versionId) } : undefined,
        });
        return { data: toRecord(updated) };
      });
    },

    /**
     * Sets the same fields on several records: reads their current versions, then writes them all
     * in one transaction, each PUT guarded by If-Match — all change or none does.
     */
    updateMany(resource: string, params: UpdateManyParams): Promise<UpdateManyResult> {
      return withHttpErrors(async () => {
        const current = await readMany(resource, params.ids);
        const found = new Set(current.map((record) => String(record.id)));
        const missing = params.ids.map(String).filter((id) => !found.has(id));
        if (missing.length > 0)
          throw invalidRequest(`Not found: ${missing.map((id) => `${resource}/${id}`).join(', ')}`);
        const changes = (params.data ?? {}) as Record<string, unknown>;
        await transaction(
          current.map((record): BundleEntry => {
            const id = String(record.id);
            const { id: _ignored, ...fields } = changes;
            return {
              resource: toResource(resource, { ...record, ...fields }, id),
              request: {
                method: 'PUT',
                url: `${resource}/${id}`,
                ...(record.meta?.versionId ? { ifMatch: weakETag(record.meta.versionId) } : {}),
              },
            };
          }),
        );
        return { data: [...params.ids] };
      });
    },

    delete(resource: string, params: DeleteParams): Promise<DeleteResult> {
      return withHttpErrors(async () => {
        await client.deleteResource(resource as ResourceType, String(params.id));
        return { data: (params.previousData ?? { id: params.id }) as FhirRecord };
      });
    },

    /** One transaction Bundle of DELETEs: a refused delete (say, by the access policy) deletes nothing. */
    deleteMany(resource: string, params: DeleteManyParams): Promise<DeleteManyResult> {
      return withHttpErrors(async () => {
        if (params.ids.length === 0) return { data: [] };
        await transaction(params.ids.map((id) => ({ request: { method: 'DELETE', url: `${resource}/${id}` } })));
        return { data: [...params.ids] };
      });
    },
  };

  return Object.assign(provider, createFhirCustomMethods(client));
}
