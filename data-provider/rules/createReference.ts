import type { Reference, Resource } from '@medplum/fhirtypes';

import { getDisplayString } from '../formatting/getDisplayString';
import { getReferenceString } from './referenceString';

/**
 * A Reference to a saved resource, with its display name so that screens can show the target
 * without reading it. The display is left out when it would only repeat 'Type/id'.
 */
export function createReference<T extends Resource>(resource: T): Reference<T> {
  const reference = getReferenceString(resource);
  const display = getDisplayString(resource);
  return display === reference ? { reference } : { reference, display };
}
