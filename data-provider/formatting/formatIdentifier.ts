import type { Identifier } from '@medplum/fhirtypes';

import { formatCodeableConcept } from './formatCoding';

/**
 * An identifier as a person reads it: 'MRN: 12345' when its type has a label, else the value
 * alone. With `system` it is the search token 'system|value' instead, which is what a FHIR search
 * by identifier takes.
 */
export function formatIdentifier(identifier: Identifier | undefined, options: { system?: boolean } = {}): string {
  const value = identifier?.value?.trim();
  if (!identifier || !value) return '';
  if (options.system) return identifier.system ? `${identifier.system}|${value}` : value;
  const label = formatCodeableConcept(identifier.type);
  return label ? `${label}: ${value}` : value;
}
