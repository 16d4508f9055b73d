import type { Resource } from '@medplum/fhirtypes';

/** The request priorities that go first on the timeline, most pressing first (app-spec §4). */
export const URGENT_PRIORITIES = ['stat', 'asap', 'urgent'] as const;

/** One entry of the patient timeline: a resource as created, or a Patient version against the one before. */
export interface TimelineItem {
  key: string;
  resource: Resource;
  /** The version before (Patient history): the entry shows the changes from it. */
  previous?: Resource;
}

function field(resource: Resource, name: string): unknown {
  return (resource as unknown as Record<string, unknown>)[name];
}

/** 0 for stat, 1 asap, 2 urgent, 3 for routine or no priority. */
export function priorityRank(resource: Resource): number {
  const priority = field(resource, 'priority');
  const rank = URGENT_PRIORITIES.indexOf(priority as (typeof URGENT_PRIORITIES)[number]);
  return rank < 0 ? URGENT_PRIORITIES.length : rank;
}

// The moment the entry is about: when it was sent, issued or ordered; else when it was last written.
const DATE_FIELDS = ['sent', 'issued', 'authoredOn', 'occurrenceDateTime', 'createdDateTime'] as const;

/** The date an entry is shown and ordered by; versions of the Patient by when they were written. */
export function timelineDate(item: TimelineItem): string | undefined {
  if (item.resource.resourceType !== 'Patient') {
    for (const name of DATE_FIELDS) {
      const value = field(item.resource, name);
      if (typeof value === 'string' && value) return value;
    }
  }
  return item.resource.meta?.lastUpdated;
}

/** A communication with any priority but routine is pinned (highlighted) on the timeline (app-spec §4). */
export function isPinned(resource: Resource): boolean {
  const priority = field(resource, 'priority');
  return resource.resourceType === 'Communication' && typeof priority === 'string' && priority !== 'routine';
}

function instant(value: string | undefined): number {
  const time = value ? Date.parse(value) : NaN;
  return Number.isNaN(time) ? -Infinity : time;
}

/** stat, asap and urgent first (in that order), then newest first; undated entries last. */
export function orderTimeline(items: readonly TimelineItem[]): TimelineItem[] {
  return items
    .map((item, index) => ({ item, index, rank: priorityRank(item.resource), time: instant(timelineDate(item)) }))
    .sort((a, b) => a.rank - b.rank || b.time - a.time || a.index - b.index)
    .map(({ item }) => item);
}

/**
 * The timeline's entries: each Patient version (history, newest first as the server sends it)
 * paired with the version before it, and every other resource as one entry.
 */
export function timelineItems(patientHistory: readonly Resource[], others: readonly Resource[]): TimelineItem[] {
  const versions: TimelineItem[] = patientHistory.map((version, index) => ({
    key: `${version.resourceType}/${version.id}/_history/${version.meta?.versionId ?? index}`,
    resource: version,
    previous: patientHistory[index + 1],
  }));
  const seen = new Set<string>();
  const rest: TimelineItem[] = [];
  for (const resource of others) {
    const key = `${resource.resourceType}/${resource.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rest.push({ key, resource });
  }
  return orderTimeline([...versions, ...rest]);
}
