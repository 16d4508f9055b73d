import type { Reference, Resource, ResourceType } from '@medplum/fhirtypes';

/**
 * The literal reference of a resource ('Patient/123') or the reference string a Reference already
 * carries (spec §3 'Other rules').
 *
 * A resource without an id cannot be referenced, so that is a programming error and throws. A
 * Reference may legitimately hold only an identifier or a display, so it answers undefined.
 */
export function getReferenceString(resource: Resource): string;
export function getReferenceString(reference: Reference): string | undefined;
export function getReferenceString(input: Resource | Reference): string | undefined;
export function getReferenceString(input: Resource | Reference): string | undefined {
  if (isResource(input)) {
    if (!input.id) throw new Error(`Cannot reference a ${input.resourceType} that has no id`);
    return `${input.resourceType}/${input.id}`;
  }
  return input.reference || undefined;
}

/** Splits a literal 'Type/id' reference; undefined for anything else (absolute URLs, '#contained', 'urn:uuid:'). */
export function parseReferenceString(
  reference: string | undefined,
): { resourceType: ResourceType; id: string } | undefined {
  const match = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(reference ?? '');
  if (!match) return undefined;
  return { resourceType: match[1] as ResourceType, id: match[2] };
}

function isResource(input: Resource | Reference): input is Resource {
  return typeof (input as Partial<Resource>).resourceType === 'string';
}
