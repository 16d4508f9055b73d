import { isKnownResourceType } from '../rules/resourceTypes';
import {
  canonicalFhircastEventName,
  FHIRCAST_EVENT_CONTEXTS,
  FHIRCAST_EVENTS_NEEDING_VERSION_ID,
  type FhircastContextKeyRule,
} from './fhircastEvents';

/**
 * Checks the context of one event (spec §5 'Hub context entries'): every entry a string key
 * known for the event and a resource with a string id and a known type, the type the key
 * expects; every required key present; a key repeated only where many are allowed; and a version
 * id where the event needs one. Answers undefined when valid, else the first problem found.
 */
export function validateContext(event: unknown, context: unknown, versionId?: unknown): string | undefined {
  const eventName = canonicalFhircastEventName(event);
  if (!eventName) return `Unknown FHIRcast event: ${String(event)}`;
  if (!Array.isArray(context)) return `Context of ${eventName} must be an array`;
  const rules = FHIRCAST_EVENT_CONTEXTS[eventName];
  const counts = new Map<string, number>();

  for (const [index, entry] of context.entries()) {
    const problem = validateEntry(eventName, rules, entry, index);
    if (problem) return problem;
    const key = (entry as { key: string }).key;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  for (const rule of rules) {
    const count = counts.get(rule.key) ?? 0;
    if (count === 0 && !rule.optional) return `${eventName} needs context '${rule.key}' (a ${typeName(rule)})`;
    if (count > 1 && !rule.manyAllowed) return `${eventName} allows one context '${rule.key}', got ${count}`;
  }
  if (FHIRCAST_EVENTS_NEEDING_VERSION_ID.includes(eventName) && (typeof versionId !== 'string' || !versionId)) {
    return `${eventName} needs context.versionId`;
  }
  return undefined;
}

function validateEntry(
  eventName: string,
  rules: readonly FhircastContextKeyRule[],
  entry: unknown,
  index: number,
): string | undefined {
  if (typeof entry !== 'object' || entry === null) return `Context entry ${index} of ${eventName} must be an object`;
  const { key, resource } = entry as { key?: unknown; resource?: unknown };
  if (typeof key !== 'string' || !key) return `Context entry ${index} of ${eventName} needs a string key`;
  const rule = rules.find((candidate) => candidate.key === key);
  if (!rule) {
    const known = rules.map((candidate) => `'${candidate.key}'`).join(', ') || 'none';
    return `${eventName} has no context '${key}' (its keys: ${known})`;
  }
  if (typeof resource !== 'object' || resource === null) return `Context '${key}' of ${eventName} needs a resource`;
  const { resourceType, id } = resource as { resourceType?: unknown; id?: unknown };
  if (typeof id !== 'string' || !id) return `Context '${key}' of ${eventName} needs a resource with a string id`;
  if (!isKnownResourceType(resourceType)) {
    return `Context '${key}' of ${eventName} has unknown resource type '${String(resourceType)}'`;
  }
  if (rule.resourceType !== '*' && resourceType !== rule.resourceType) {
    return `Context '${key}' of ${eventName} must be a ${rule.resourceType}, not a ${resourceType}`;
  }
  return undefined;
}

function typeName(rule: FhircastContextKeyRule): string {
  return rule.resourceType === '*' ? 'resource' : rule.resourceType;
}
