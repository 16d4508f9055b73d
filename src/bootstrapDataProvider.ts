import {
  HttpError,
  type DataProvider,
  type GetListParams,
  type GetListResult,
  type GetOneParams,
  type GetOneResult,
  type RaRecord,
} from 'react-admin';
import type { Bundle, OperationOutcome, Resource } from '@medplum/fhirtypes';

/**
 * A read-only react-admin data provider over the FHIR REST API, enough for the first screen.
 * The client-layer issue replaces it with the full provider in data-provider/.
 */
const fhirBase = '/fhir/R4/';

const sortParameter: Record<string, string> = {
  lastUpdated: '_lastUpdated',
  id: '_id',
  birthDate: 'birthdate',
  gender: 'gender',
  name: 'family',
};

async function fetchFhir<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(`${fhirBase}${path}`, { headers: { accept: 'application/fhir+json' }, signal });
  const body = (await response.json().catch(() => undefined)) as T | OperationOutcome | undefined;
  if (!response.ok) {
    const issue = (body as OperationOutcome | undefined)?.issue?.[0];
    throw new HttpError(issue?.details?.text ?? issue?.diagnostics ?? `HTTP ${response.status}`, response.status, body);
  }
  return body as T;
}

function toRecord(resource: Resource): RaRecord {
  return { ...resource, id: resource.id as string, lastUpdated: resource.meta?.lastUpdated };
}

function notYet(method: string): Promise<never> {
  return Promise.reject(
    new Error(`${method} arrives with the client layer (data-provider/); this screen is read-only.`),
  );
}

export const bootstrapDataProvider: DataProvider = {
  async getList(resource: string, params: GetListParams): Promise<GetListResult> {
    const { page, perPage } = params.pagination ?? { page: 1, perPage: 20 };
    const field = params.sort?.field ?? 'lastUpdated';
    const order = params.sort?.order === 'ASC' ? '' : '-';
    const query = new URLSearchParams({
      _count: String(perPage),
      _offset: String((page - 1) * perPage),
      _sort: `${order}${sortParameter[field] ?? '_lastUpdated'}`,
      _total: 'accurate',
    });
    const bundle = await fetchFhir<Bundle>(`${resource}?${query.toString()}`, params.signal);
    return { data: (bundle.entry ?? []).map((e) => toRecord(e.resource as Resource)), total: bundle.total ?? 0 };
  },
  async getOne(resource: string, params: GetOneParams): Promise<GetOneResult> {
    return {
      data: toRecord(await fetchFhir<Resource>(`${resource}/${encodeURIComponent(String(params.id))}`, params.signal)),
    };
  },
  getMany: () => notYet('getMany'),
  getManyReference: () => notYet('getManyReference'),
  create: () => notYet('create'),
  update: () => notYet('update'),
  updateMany: () => notYet('updateMany'),
  delete: () => notYet('delete'),
  deleteMany: () => notYet('deleteMany'),
};
