/**
 * The patient chart's tab bar (app-spec §2.2, §2.3): label, the path segment under
 * `/Patient/{id}/`, and for the search tabs the resource type listed and any fixed filter.
 */
export interface ChartTab {
  label: string;
  /** Path segment after `/Patient/{id}/` (a resource type for the search tabs). */
  path: string;
  /** Set for the tabs that list one resource type scoped to the patient. */
  resourceType?: string;
  /** Fixed filters of the tab's search beyond the patient (Labs: the lab procedure category). */
  filters?: Record<string, string>;
  /**
   * What the tab's search brings along (`_include`), so that a row names the practitioner or the
   * medication it points at: imported records (Synthea's) point at them without a display.
   */
  includes?: readonly string[];
  /**
   * Where the tab's New goes when not the chart's own editor (`/Patient/{id}/{type}/new`): an
   * appointment is booked on the booking form, which checks clashes, with the patient chosen.
   */
  newRecordPath?: (patientId: string) => string;
  /** Shown only when e-prescribing is enabled for the membership (app-spec §6). */
  ePrescribing?: true;
  /** The care team's work (editing, visit notes, tasks, chat, prescribing): not in a patient's own view. */
  staffOnly?: true;
  /**
   * Its path is matched as written: `encounter` is the visit note, while `Encounter` (the resource
   * type, where the summary's "documented visits" link goes) lists the patient's visits.
   */
  caseSensitive?: true;
}

/** SNOMED CT "Laboratory procedure": the category of lab orders (Labs tab, app-spec §2.3). */
export const LAB_PROCEDURE_CATEGORY = {
  system: 'http://snomed.info/sct',
  code: '108252007',
  display: 'Laboratory procedure',
};

export const DEFAULT_CHART_TAB = 'timeline';

export const CHART_TABS: readonly ChartTab[] = [
  { label: 'Timeline', path: 'timeline' },
  { label: 'Edit', path: 'edit', staffOnly: true },
  { label: 'Encounter', path: 'encounter', staffOnly: true, caseSensitive: true },
  { label: 'Tasks', path: 'Task', resourceType: 'Task', staffOnly: true, includes: ['Task:owner'] },
  {
    label: 'Meds',
    path: 'MedicationRequest',
    resourceType: 'MedicationRequest',
    includes: ['MedicationRequest:medication', 'MedicationRequest:requester'],
  },
  {
    label: 'Labs',
    path: 'ServiceRequest',
    resourceType: 'ServiceRequest',
    filters: { category: LAB_PROCEDURE_CATEGORY.code },
    includes: ['ServiceRequest:requester'],
  },
  { label: 'Devices', path: 'Device', resourceType: 'Device' },
  {
    label: 'Reports',
    path: 'DiagnosticReport',
    resourceType: 'DiagnosticReport',
    includes: ['DiagnosticReport:performer'],
  },
  {
    label: 'Documents',
    path: 'DocumentReference',
    resourceType: 'DocumentReference',
    includes: ['DocumentReference:author'],
  },
  {
    label: 'Appointments',
    path: 'Appointment',
    resourceType: 'Appointment',
    includes: ['Appointment:actor'],
    newRecordPath: (patientId) => `/appointments/new?patient=${encodeURIComponent(`Patient/${patientId}`)}`,
  },
  { label: 'Care Plans', path: 'CarePlan', resourceType: 'CarePlan' },
  { label: 'Communications', path: 'communication', staffOnly: true },
  { label: 'DoseSpot', path: 'dosespot', ePrescribing: true, staffOnly: true },
];

/** Rows per page of a chart tab list; newest first (app-spec §2.3). */
export const CHART_TAB_PAGE_SIZE = 20;
export const CHART_TAB_SORT = '-_lastUpdated';

/** The tab a chart path belongs to: its first segment, case-insensitively (`task/…` is Tasks). */
/**
 * The tabs a viewer gets: DoseSpot only with e-prescribing; a patient looking at their own record
 * (the portal's "My record") reads it without the care team's tabs — their messages are the
 * portal's home.
 */
export function chartTabsFor(viewer: { ePrescribing: boolean; patientView: boolean }): ChartTab[] {
  return CHART_TABS.filter(
    (tab) => (!tab.ePrescribing || viewer.ePrescribing) && (!tab.staffOnly || !viewer.patientView),
  );
}

export function chartTabOf(segment: string | undefined): ChartTab | undefined {
  if (!segment) return CHART_TABS[0];
  const lower = segment.toLowerCase();
  return CHART_TABS.find((tab) => (tab.caseSensitive ? tab.path === segment : tab.path.toLowerCase() === lower));
}
