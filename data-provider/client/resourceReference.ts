import type { Device, Reference, Resource, ResourceType } from '@medplum/fhirtypes';
import { badRequest } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';

/** Resources the server writes on its own name `meta.author` as `system`; reading that reference gives this device. */
export const SYSTEM_DEVICE: Device = {
  resourceType: 'Device',
  id: 'system',
  deviceName: [{ name: 'System', type: 'user-friendly-name' }],
};

export const SYSTEM_REFERENCE = 'system';

/** `ResourceType/id` for a stored resource. */
export function referenceTo<T extends Resource>(resource: T): Reference<T> {
  if (!resource.id) {
    throw new OperationOutcomeError(badRequest(`Cannot refer to a ${resource.resourceType} that has no id`));
  }
  return { reference: `${resource.resourceType}/${resource.id}` };
}

const typeAndId = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/;

/** `Patient/123` → ['Patient', '123']; anything else is refused (spec §5: reading by reference needs Type/id). */
export function parseReference(reference: Reference | string | undefined): [ResourceType, string] {
  const text = typeof reference === 'string' ? reference : reference?.reference;
  const match = text === undefined ? null : typeAndId.exec(text);
  if (!match) {
    throw new OperationOutcomeError(badRequest(`Invalid reference "${text ?? ''}": expected ResourceType/id`));
  }
  return [match[1] as ResourceType, match[2]];
}
