import type { ResourceType } from '@medplum/fhirtypes';
import type { ChartAccess } from '../chartAccess';

/** How many of each type the timeline loads (app-spec §9). */
export const TIMELINE_COUNT = 100;

export interface TimelineSearch {
  resourceType: ResourceType;
  /** The type's search parameter for the patient. */
  parameter: string;
  /** What a reader calls them, for the line that says they are not shown. */
  label: string;
  /** The care team's own work, not the patient's record: not in a patient's own view (nor openable there). */
  staffOnly?: true;
}

/** The timeline's searches besides the Patient's history (app-spec §7), each by its patient parameter. */
export const TIMELINE_SEARCHES: readonly TimelineSearch[] = [
  { resourceType: 'Communication', parameter: 'subject', label: 'messages' },
  { resourceType: 'Device', parameter: 'patient', label: 'devices' },
  { resourceType: 'DeviceRequest', parameter: 'patient', label: 'device requests' },
  { resourceType: 'DiagnosticReport', parameter: 'subject', label: 'reports' },
  { resourceType: 'Media', parameter: 'subject', label: 'media' },
  { resourceType: 'ServiceRequest', parameter: 'subject', label: 'orders' },
  { resourceType: 'Task', parameter: 'subject', label: 'tasks', staffOnly: true },
];

export interface TimelinePlan {
  /** The searches to send. */
  asked: TimelineSearch[];
  /** Those the caller's access policy would refuse: not sent, and the timeline says they are not shown. */
  notAllowed: TimelineSearch[];
}

/**
 * What the timeline asks for: in a patient's own view, not the care team's tasks (they open no
 * screen there, and are not the patient's record); and nothing the caller's policy would refuse.
 */
export function timelinePlan(viewer: { patientView: boolean }, access: ChartAccess): TimelinePlan {
  const forViewer = TIMELINE_SEARCHES.filter((search) => !(search.staffOnly && viewer.patientView));
  return {
    asked: forViewer.filter((search) => access.canSearch(search.resourceType)),
    notAllowed: forViewer.filter((search) => !access.canSearch(search.resourceType)),
  };
}

export function timelineSearchQuery(parameter: string, patientId: string): Record<string, string> {
  return { [parameter]: `Patient/${patientId}`, _count: String(TIMELINE_COUNT), _sort: '-_lastUpdated' };
}
