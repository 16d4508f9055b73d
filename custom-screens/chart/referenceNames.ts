import type { PractitionerRole, Reference, Resource } from '@medplum/fhirtypes';
import { formatCodeableConcept, nameOfResource as sharedNameOfResource } from '../../data-provider/formatting';

/**
 * Names of the resources a list's references point at, by `Type/id`: what a search's `_include`
 * brought back. Imported records (Synthea, other EHRs) point at a Practitioner or a Medication
 * without a `display`, and the bare `Practitioner/694a…` says nothing to a clinician.
 */
export type ReferenceNames = ReadonlyMap<string, string>;

export const NO_REFERENCE_NAMES: ReferenceNames = new Map();

/**
 * What a resource is called where another points at it; empty when it has no name of its own.
 * The shared rule, except that a role is named through the names a search brought beside it.
 */
export function nameOfResource(resource: Resource): string {
  if (resource.resourceType === 'PractitionerRole') return roleName(resource, NO_REFERENCE_NAMES);
  return sharedNameOfResource(resource);
}

/** The names of a search's included resources (and of any others handed in), by `Type/id`. */
export function referenceNamesOf(resources: readonly Resource[]): ReferenceNames {
  const names = new Map<string, string>();
  for (const resource of resources) {
    if (!resource.id) continue;
    const name = nameOfResource(resource);
    if (name) names.set(`${resource.resourceType}/${resource.id}`, name);
  }
  // A role's holder is often named only by a resource beside it (`_include:iterate=PractitionerRole:practitioner`).
  for (const resource of resources) {
    if (resource.resourceType !== 'PractitionerRole' || !resource.id) continue;
    const name = roleName(resource, names);
    if (name) names.set(`PractitionerRole/${resource.id}`, name);
  }
  return names;
}

/**
 * A role is called by who holds it ("Keeley Yundt"), else where it is held, else what it is:
 * a clinician looks for the person, not for "General practitioner at …".
 */
function roleName(role: PractitionerRole, names: ReferenceNames): string {
  return (
    referencedName(role.practitioner, names, role) ||
    referencedName(role.organization, names, role) ||
    formatCodeableConcept(role.code?.[0])
  );
}

/**
 * The name of what a reference points at: its own display, else the name of the resource (included
 * with the search, or contained in `holder`); empty when neither says.
 */
export function referencedName(
  reference: Reference | undefined,
  names: ReferenceNames = NO_REFERENCE_NAMES,
  holder?: Resource,
): string {
  const display = reference?.display?.trim();
  if (display) return display;
  const target = reference?.reference?.trim() ?? '';
  if (target.startsWith('#')) {
    const contained = ((holder as { contained?: Resource[] } | undefined)?.contained ?? []).find(
      (resource) => resource.id === target.slice(1),
    );
    return contained ? nameOfResource(contained) : '';
  }
  return (target && (names.get(target) ?? names.get(localPart(target)))) || '';
}

/**
 * A reference as a person reads it: the name of what it points at, else the kind of thing it points
 * at ("Practitioner") — never the bare id.
 */
export function referenceName(
  reference: Reference | undefined,
  names: ReferenceNames = NO_REFERENCE_NAMES,
  holder?: Resource,
): string {
  const named = referencedName(reference, names, holder);
  if (named) return named;
  const target = reference?.reference?.trim() ?? '';
  if (target.startsWith('#')) return '';
  // An absolute URL or a conditional reference still names its type before the id or the '?'.
  return /([A-Z][A-Za-z]+)(?:\/[^/?]+|\?.*)$/.exec(target)?.[1] ?? '';
}

/** `Practitioner/1` of `https://example.org/fhir/Practitioner/1/_history/2`. */
function localPart(target: string): string {
  const match = /([A-Z][A-Za-z]+\/[^/]+)(?:\/_history\/[^/]+)?$/.exec(target);
  return match ? match[1] : target;
}
