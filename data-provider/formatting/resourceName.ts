import type { CodeableConcept, Resource } from '@medplum/fhirtypes';
import { formatCodeableConcept } from './formatCoding';
import { getDisplayString } from './getDisplayString';

function isConcept(value: unknown): value is CodeableConcept {
  return typeof value === 'object' && value !== null && ('coding' in value || 'text' in value);
}

/** What a record is about when it has no name: its code, vaccine or type (an Encounter's "Check up"). */
function conceptName(resource: Resource): string {
  const { code, vaccineCode, type } = resource as { code?: unknown; vaccineCode?: unknown; type?: unknown };
  for (const value of [code, vaccineCode, Array.isArray(type) ? type[0] : type]) {
    if (isConcept(value)) {
      const text = formatCodeableConcept(value);
      if (text) return text;
    }
  }
  return '';
}

/**
 * What a resource is called where another points at it; empty when it has no name of its own.
 * Unlike getDisplayString, never the bare `Type/id`: a screen that names a reference with it would
 * show the very id it was trying to replace.
 */
export function nameOfResource(resource: Resource): string {
  if (resource.resourceType === 'Medication') return formatCodeableConcept(resource.code);
  if (resource.resourceType === 'PractitionerRole') {
    // A role is called by who holds it, else where it is held: a clinician looks for the person.
    return (
      resource.practitioner?.display?.trim() ||
      resource.organization?.display?.trim() ||
      formatCodeableConcept(resource.code?.[0])
    );
  }
  const name = getDisplayString(resource);
  return name && name !== `${resource.resourceType}/${resource.id}` ? name : conceptName(resource);
}
