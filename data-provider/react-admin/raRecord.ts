import type { RaRecord } from 'react-admin';
import type { Resource } from '@medplum/fhirtypes';

/**
 * A FHIR resource as a react-admin record. The resource is kept whole; `lastUpdated` mirrors
 * `meta.lastUpdated` at the top level so that list columns and the default sort can name it (no
 * FHIR resource has a top-level element of that name, so it is removed again before writing).
 */
export type FhirRecord<T extends Resource = Resource> = T & RaRecord & { lastUpdated?: string };

export function toRecord<T extends Resource>(resource: T): FhirRecord<T> {
  return { ...resource, id: resource.id as string, lastUpdated: resource.meta?.lastUpdated } as FhirRecord<T>;
}

/** A record (or form values) back to the resource to send: the mirror field removed, the type and id set. */
export function toResource<T extends Resource>(
  resourceType: string,
  record: Partial<FhirRecord<T>> | Record<string, unknown>,
  id?: string,
): T {
  const { lastUpdated: _mirror, ...rest } = record as Record<string, unknown>;
  const resource = { ...rest, resourceType } as Record<string, unknown>;
  if (id !== undefined) resource.id = id;
  else if (resource.id === undefined || resource.id === null || resource.id === '') delete resource.id;
  return resource as T;
}
