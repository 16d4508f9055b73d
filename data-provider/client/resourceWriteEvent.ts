import type { Bundle } from '@medplum/fhirtypes';

/** Name of the event a FhirClient dispatches after a successful write. */
export const RESOURCE_WRITE_EVENT = 'resourceWrite';

/**
 * Announces that this client wrote to the server: `resourceTypes` are the types written, or
 * undefined when they cannot be told (a bundle entry without a readable type). Lets caches outside
 * the client (e.g. the schema engine's definitions) drop what a write made stale.
 */
export class ResourceWriteEvent extends Event {
  constructor(readonly resourceTypes: readonly string[] | undefined) {
    super(RESOURCE_WRITE_EVENT);
  }

  /** Could this write have changed a resource of `type`? */
  touches(type: string): boolean {
    return this.resourceTypes === undefined || this.resourceTypes.includes(type);
  }
}

const TYPE_AT_START = /^\/?([A-Z][A-Za-z]+)(?=[/?]|$)/;

/** The types the writing entries of a batch or transaction touch; undefined when one cannot be told. */
export function typesWrittenByBundle(bundle: Partial<Bundle> | undefined): string[] | undefined {
  const types = new Set<string>();
  for (const entry of bundle?.entry ?? []) {
    const method = entry.request?.method;
    if (method === 'GET' || method === 'HEAD') continue;
    const type = entry.resource?.resourceType ?? TYPE_AT_START.exec(entry.request?.url ?? '')?.[1];
    if (!type) return undefined;
    types.add(type);
  }
  return [...types];
}
