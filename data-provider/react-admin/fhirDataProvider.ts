import {
  HttpError,
  type DataProvider,
  type GetListParams,
  type GetListResult,
  type GetOneParams,
  type GetOneResult,
  type RaRecord,
} from 'react-admin';
import type { Resource, ResourceType } from '@medplum/fhirtypes';
import type { FhirClient } from '../client';
import { OperationOutcomeError } from '../outcomes';

/**
 * react-admin's dataProvider over the FHIR client: the list and show calls the first screens use.
 * Writes and the custom methods of the client-layer issue come next.
 */
const sortParameter: Record<string, string> = {
  lastUpdated: '_lastUpdated',
  id: '_id',
  birthDate: 'birthdate',
  gender: 'gender',
  name: 'family',
};

function toRecord(resource: Resource): RaRecord {
  return { ...resource, id: resource.id as string, lastUpdated: resource.meta?.lastUpdated };
}

/** Client errors become react-admin HttpErrors carrying the OperationOutcome. */
async function asHttpError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OperationOutcomeError) throw new HttpError(error.message, error.status, error.outcome);
    throw error;
  }
}

function notYet(method: string): Promise<never> {
  return Promise.reject(new Error(`${method} is not available on this screen yet`));
}

export function createFhirDataProvider(client: FhirClient): DataProvider {
  return {
    getList(resource: string, params: GetListParams): Promise<GetListResult> {
      return asHttpError(async () => {
        const { page, perPage } = params.pagination ?? { page: 1, perPage: 20 };
        const field = params.sort?.field ?? 'lastUpdated';
        const order = params.sort?.order === 'ASC' ? '' : '-';
        const bundle = await client.search(
          resource as ResourceType,
          {
            _count: String(perPage),
            _offset: String((page - 1) * perPage),
            _sort: `${order}${sortParameter[field] ?? '_lastUpdated'}`,
            _total: 'accurate',
          },
          { signal: params.signal },
        );
        return { data: (bundle.entry ?? []).map((e) => toRecord(e.resource as Resource)), total: bundle.total ?? 0 };
      });
    },
    getOne(resource: string, params: GetOneParams): Promise<GetOneResult> {
      return asHttpError(async () => ({
        data: toRecord(
          await client.readResource(resource as ResourceType, String(params.id), { signal: params.signal }),
        ),
      }));
    },
    getMany: () => notYet('getMany'),
    getManyReference: () => notYet('getManyReference'),
    create: () => notYet('create'),
    update: () => notYet('update'),
    updateMany: () => notYet('updateMany'),
    delete: () => notYet('delete'),
    deleteMany: () => notYet('deleteMany'),
  };
}
