import type { Resource } from '@medplum/fhirtypes';

import { getReferenceString } from '../rules/referenceString';
import { formatHumanName } from './formatHumanName';

/**
 * The name a screen shows for any resource (spec §3 'Display-name rules'): people by their first
 * name, devices by their first device name, medication requests by the medication's text,
 * subscriptions by their criteria, users by their email; anything else by its `name` string, then
 * its `code.text`, then its 'Type/id' reference. A rule that finds nothing falls through to the
 * general ones, so a nameless patient still shows as 'Patient/123' rather than as a blank.
 *
 * The spec's chain says nothing of `title`; it is tried last before 'Type/id', so every resource
 * the spec names by name or code text still is. Canonical resources (Questionnaire, PlanDefinition,
 * ValueSet...) are often authored with only their human `title`, the machine `name` left out, and
 * would otherwise be called by their UUID.
 */
export function getDisplayString(resource: Resource): string {
  return specificDisplay(resource) || generalDisplay(resource);
}

function specificDisplay(resource: Resource): string | undefined {
  switch (resource.resourceType) {
    case 'Patient':
    case 'Practitioner':
    case 'RelatedPerson':
      return formatHumanName(resource.name?.[0]);
    case 'Device':
      return resource.deviceName?.[0]?.name?.trim();
    case 'MedicationRequest':
      return resource.medicationCodeableConcept?.text?.trim();
    case 'Subscription':
      return resource.criteria?.trim();
    case 'User':
      return resource.email?.trim();
    default:
      return undefined;
  }
}

function generalDisplay(resource: Resource): string {
  // Many types have a `name` (Organization, Location, ...) and some have a `code` (Observation,
  // Condition, ...); they are read structurally because the Resource union has no common field.
  const { name, code, title } = resource as { name?: unknown; code?: { text?: unknown }; title?: unknown };
  if (typeof name === 'string' && name.trim()) return name.trim();
  if (typeof code?.text === 'string' && code.text.trim()) return code.text.trim();
  if (typeof title === 'string' && title.trim()) return title.trim();
  // A resource not yet saved has no id to reference; its type is the most that can be said.
  return resource.id ? getReferenceString(resource) : resource.resourceType;
}
