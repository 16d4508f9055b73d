import type { ResourceType } from '@medplum/fhirtypes';

/** How many of each type the timeline loads (app-spec §9). */
export const TIMELINE_COUNT = 100;

/** The timeline's searches besides the Patient's history (app-spec §7), each by its patient parameter. */
export const TIMELINE_SEARCHES: readonly { resourceType: ResourceType; parameter: string }[] = [
  { resourceType: 'Communication', parameter: 'subject' },
  { resourceType: 'Device', parameter: 'patient' },
  { resourceType: 'DeviceRequest', parameter: 'patient' },
  { resourceType: 'DiagnosticReport', parameter: 'subject' },
  { resourceType: 'Media', parameter: 'subject' },
  { resourceType: 'ServiceRequest', parameter: 'subject' },
  { resourceType: 'Task', parameter: 'subject' },
];

export function timelineSearchQuery(parameter: string, patientId: string): Record<string, string> {
  return { [parameter]: `Patient/${patientId}`, _count: String(TIMELINE_COUNT), _sort: '-_lastUpdated' };
}
