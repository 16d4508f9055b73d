import type { Reference, Resource } from '@medplum/fhirtypes';

/**
 * The elements that name who did or ordered what a record is about, in the order they say it
 * most directly: who ordered it, recorded it, asserted it, wrote it, performed it, took part.
 */
const AUTHOR_ELEMENTS = ['requester', 'recorder', 'asserter', 'author', 'performer', 'participant'] as const;

function displayOf(value: unknown, element: string): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Reference & { actor?: Reference; individual?: Reference };
  // A performer may be a Reference or a backbone element with its `actor`; a participant names its `individual`.
  const reference = record.actor ?? record.individual ?? record;
  // The patient takes part in their own appointment or visit: that says nothing of who held it.
  if (element === 'participant' && reference.reference?.startsWith('Patient/')) return undefined;
  return reference.display?.trim() || undefined;
}

/**
 * Who the record itself says did it — an imported encounter's clinician, an order's prescriber —
 * by display; undefined when it names nobody by name. Beside the date it says more than who last
 * wrote the record on this server (an import credits the importer).
 */
export function recordedAuthor(resource: Resource): string | undefined {
  const json = resource as unknown as Record<string, unknown>;
  for (const element of AUTHOR_ELEMENTS) {
    const value = json[element];
    for (const item of Array.isArray(value) ? value : [value]) {
      const name = displayOf(item, element);
      if (name) return name;
    }
  }
  return undefined;
}

/**
 * The byline beside an entry's date: who did it, and who last wrote it here when that is someone
 * else. `datedByWrite` is true when the entry is dated by that very write (no date of its own).
 */
export function timelineByline(resource: Resource, datedByWrite: boolean): string | undefined {
  // A message's last writer is whoever marked it read; its title names the sender.
  if (resource.resourceType === 'Communication') return undefined;
  const writer = resource.meta?.author?.display;
  const doer = resource.resourceType === 'Patient' ? undefined : recordedAuthor(resource);
  if (!doer || doer === writer) {
    if (!writer) return undefined;
    // Shown by its own date (ordered, issued) but written last by `writer`, perhaps much later
    // (a task someone paused): named as the last to change it, not as the one who did it then.
    return datedByWrite ? writer : `last changed by ${writer}`;
  }
  if (!writer) return doer;
  return datedByWrite ? `${doer} · entered by ${writer}` : `${doer} · last changed by ${writer}`;
}
