import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { FhircastContextEntry } from '../../data-provider/fhircast';
import type { AccessGuard } from '../auth/accessGuard';
import { FhirError } from '../fhir/fhirError';
import type { Repository } from '../fhir/repository';

/**
 * Where a topic lives: FHIRcast synchronises the applications of one user's session, so a topic
 * belongs to the person signed in (the membership's profile) in their project. Another member of
 * the project (a patient of its portal, a bot, a front-desk user) naming the same topic gets a topic
 * of their own: they can neither read the context of someone else's session, nor follow its
 * events, nor drive it (open another patient in it, log it out). The person's own applications
 * (the EHR and the SMART apps they launch) share their profile, so they share the topic.
 */
export function topicKey(profileReference: string, topic: string): string {
  // A reference has no line break, so the key splits back unambiguously (publicTopic).
  return `${profileReference}\n${topic}`;
}

/** The topic as its subscribers named it, from its stored key. */
export function publicTopic(key: string): string {
  const separator = key.indexOf('\n');
  return separator >= 0 ? key.slice(separator + 1) : key;
}

/** Context resources that are messages rather than records of the project: nothing to look up. */
const messageTypes = new Set(['Bundle', 'OperationOutcome', 'Parameters']);

/**
 * The context as `access` may see it — each resource redacted (hidden fields, secrets) — or
 * undefined when it names a record `access` may not read. A record is looked up, as `access`,
 * unless `access` reads every row of its type whole (then nothing about it can be withheld, and a
 * context may name a record not saved yet). The resources of a message (a DiagnosticReport-update's
 * Bundle of changes, not saved yet) need only their type to be readable.
 */
export async function contextVisibleTo(
  repository: Repository,
  access: AccessGuard,
  context: readonly FhircastContextEntry[],
): Promise<FhircastContextEntry[] | undefined> {
  const visible: FhircastContextEntry[] = [];
  for (const entry of context) {
    const resource = entry.resource as Resource;
    if (messageTypes.has(resource.resourceType)) {
      const message = messageVisibleTo(access, resource);
      if (!message) return undefined;
      visible.push({ ...entry, resource: message });
      continue;
    }
    if (!(await mayRead(repository, access, resource))) return undefined;
    visible.push({ ...entry, resource: access.redact(resource) });
  }
  return visible;
}

async function mayRead(repository: Repository, access: AccessGuard, resource: Resource): Promise<boolean> {
  if (access.seesWhole(resource.resourceType)) return true;
  try {
    await repository.transaction((session) => session.read(resource.resourceType, resource.id as string), access);
    return true;
  } catch (error) {
    if (error instanceof FhirError) return false;
    throw error;
  }
}

function messageVisibleTo(access: AccessGuard, message: Resource): Resource | undefined {
  if (message.resourceType !== 'Bundle') return access.redact(message);
  const bundle = message as Bundle;
  const entries = [];
  for (const entry of bundle.entry ?? []) {
    if (entry.resource && !access.canReadType(entry.resource.resourceType)) return undefined;
    entries.push(entry.resource ? { ...entry, resource: access.redact(entry.resource) } : entry);
  }
  return bundle.entry ? { ...bundle, entry: entries } : bundle;
}
