import { describe, expect, it } from 'vitest';
import type { Resource } from '@medplum/fhirtypes';
import { isPinned, orderTimeline, priorityRank, timelineDate, timelineItems, type TimelineItem } from './timelineOrder';

const item = (resource: Record<string, unknown>): TimelineItem => ({
  key: `${resource.resourceType}/${resource.id}`,
  resource: resource as unknown as Resource,
});

describe('timeline ordering (app-spec §4)', () => {
  it('puts stat, asap and urgent first in that order, then the rest newest first', () => {
    const items = [
      item({ resourceType: 'Task', id: 'old-routine', priority: 'routine', authoredOn: '2024-01-01T00:00:00Z' }),
      item({ resourceType: 'ServiceRequest', id: 'urgent', priority: 'urgent', authoredOn: '2020-01-01T00:00:00Z' }),
      item({ resourceType: 'Media', id: 'newest', issued: '2025-06-01T00:00:00Z' }),
      item({ resourceType: 'Communication', id: 'stat', priority: 'stat', sent: '2019-01-01T00:00:00Z' }),
      item({ resourceType: 'Task', id: 'asap', priority: 'asap', authoredOn: '2018-01-01T00:00:00Z' }),
      item({ resourceType: 'Device', id: 'middle', meta: { lastUpdated: '2024-06-01T00:00:00Z' } }),
    ];
    expect(orderTimeline(items).map((i) => i.resource.id)).toEqual([
      'stat',
      'asap',
      'urgent',
      'newest',
      'middle',
      'old-routine',
    ]);
  });

  it('among entries of one priority the newer comes first, and undated ones last', () => {
    const items = [
      item({ resourceType: 'Task', id: 'undated', priority: 'urgent' }),
      item({ resourceType: 'Task', id: 'older', priority: 'urgent', authoredOn: '2023-01-01' }),
      item({ resourceType: 'Task', id: 'newer', priority: 'urgent', authoredOn: '2024-01-01' }),
    ];
    expect(orderTimeline(items).map((i) => i.resource.id)).toEqual(['newer', 'older', 'undated']);
  });

  it('ranks priorities and treats missing or unknown ones as routine', () => {
    expect(priorityRank({ resourceType: 'Task', priority: 'stat' } as Resource)).toBe(0);
    expect(priorityRank({ resourceType: 'Task', priority: 'routine' } as Resource)).toBe(3);
    expect(priorityRank({ resourceType: 'Device' } as Resource)).toBe(3);
  });

  it('dates an entry by when it was sent, issued or ordered, else by its last write', () => {
    expect(
      timelineDate(item({ resourceType: 'Communication', sent: '2024-02-02', meta: { lastUpdated: '2025-01-01' } })),
    ).toBe('2024-02-02');
    expect(timelineDate(item({ resourceType: 'Device', meta: { lastUpdated: '2025-01-01' } }))).toBe('2025-01-01');
    // A Patient version is about when it was written, not the patient's own dates.
    expect(
      timelineDate(item({ resourceType: 'Patient', birthDate: '1970-01-01', meta: { lastUpdated: '2025-03-03' } })),
    ).toBe('2025-03-03');
  });

  it('pins communications whose priority is not routine, and nothing else', () => {
    expect(isPinned({ resourceType: 'Communication', priority: 'urgent' } as Resource)).toBe(true);
    expect(isPinned({ resourceType: 'Communication', priority: 'routine' } as Resource)).toBe(false);
    expect(isPinned({ resourceType: 'Communication' } as Resource)).toBe(false);
    expect(isPinned({ resourceType: 'Task', priority: 'stat' } as Resource)).toBe(false);
  });

  it('pairs each Patient version with the one before it and drops repeated resources', () => {
    const v2 = { resourceType: 'Patient', id: 'p', meta: { versionId: '2', lastUpdated: '2025-02-01T00:00:00Z' } };
    const v1 = { resourceType: 'Patient', id: 'p', meta: { versionId: '1', lastUpdated: '2025-01-01T00:00:00Z' } };
    const task = { resourceType: 'Task', id: 't', authoredOn: '2024-12-01T00:00:00Z' };
    const items = timelineItems([v2, v1] as Resource[], [task, task] as Resource[]);
    expect(items.map((i) => i.key)).toEqual(['Patient/p/_history/2', 'Patient/p/_history/1', 'Task/t']);
    expect(items[0].previous).toBe(v1);
    expect(items[1].previous).toBeUndefined();
  });
});
