import type { ResourceType } from '@medplum/fhirtypes';
import { OPEN_TASK_STATUSES } from '../../tasks/myTaskRules';

/** How many of each type the summary loads, newest first (app-spec §7, §9). */
export const SUMMARY_COUNT = 100;
export const SUMMARY_SORT = '-_lastUpdated';

export type SummaryPart =
  | 'allergies'
  | 'problems'
  | 'medications'
  | 'observations'
  | 'appointments'
  | 'visits'
  | 'openTasks'
  | 'generalPractitioner';

export interface SummarySearch {
  part: SummaryPart;
  resourceType: ResourceType;
  query: Record<string, string | number | readonly string[]>;
}

// The summary's searches take appointments from the viewer's today on and visits up to it; the
// chart's other folders import the day from here.
export { localDay } from '../../../data-provider/rules';

/**
 * The header's look-up of the patient's general practitioner: the patient (only the references
 * and the names) with what they point at, a role with its practitioner and organisation. A
 * search rather than a read of the reference, so that it starts, and rides in the summary's
 * batch, before the patient has arrived to say whom it names. Imported patients point at their
 * practitioner without a display, and neither is named anywhere else.
 */
export function generalPractitionerSearch(patientId: string): SummarySearch {
  return {
    part: 'generalPractitioner',
    resourceType: 'Patient',
    query: {
      _id: patientId,
      _include: 'Patient:general-practitioner',
      '_include:iterate': ['PractitionerRole:practitioner', 'PractitionerRole:organization'],
      // `_elements` applies to the included resources too: each keeps what it is named by.
      _elements: 'generalPractitioner,name,practitioner,organization,code',
    },
  };
}

/**
 * The six searches of the patient summary (app-spec §7), each 100 newest first; the look-up of the
 * general practitioner the header names; and — for a caller who may search tasks — the patient's
 * open tasks for the header, only the elements it counts with.
 */
export function summarySearches(patientId: string, today: string, include: { openTasks: boolean }): SummarySearch[] {
  const patient = `Patient/${patientId}`;
  const page = { _count: SUMMARY_COUNT, _sort: SUMMARY_SORT };
  const openTasks: SummarySearch = {
    part: 'openTasks',
    resourceType: 'Task',
    // `focus`: whether a task has a form to act on, as the visit note's Required actions counts them.
    query: {
      patient,
      status: OPEN_TASK_STATUSES.join(','),
      _elements: 'status,restriction,focus',
      _count: SUMMARY_COUNT,
    },
  };
  return [
    { part: 'allergies', resourceType: 'AllergyIntolerance', query: { patient, ...page } },
    { part: 'problems', resourceType: 'Condition', query: { patient, ...page } },
    {
      part: 'medications',
      resourceType: 'MedicationRequest',
      // The Medication an order points at comes along: imported orders often name it nowhere else.
      query: { subject: patient, ...page, _include: 'MedicationRequest:medication' },
    },
    { part: 'observations', resourceType: 'Observation', query: { subject: patient, ...page } },
    {
      part: 'appointments',
      resourceType: 'Appointment',
      query: { patient, date: `ge${today}`, status: 'proposed,pending,booked', ...page },
    },
    {
      part: 'visits',
      resourceType: 'Encounter',
      query: { subject: patient, date: `le${today}`, status: 'finished', ...page },
    },
    generalPractitionerSearch(patientId),
    ...(include.openTasks ? [openTasks] : []),
  ];
}

export function summaryQueryKey(patientId: string, part?: SummaryPart): unknown[] {
  return part ? ['chart-summary', patientId, part] : ['chart-summary', patientId];
}
