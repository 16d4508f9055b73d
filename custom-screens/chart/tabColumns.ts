import type {
  CarePlan,
  CodeableConcept,
  MedicationRequest,
  Observation,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { formatCodeableConcept } from '../../data-provider/formatting';
import { OPEN_TASK_STATUSES } from '../tasks/myTaskRules';
import { carePlanTitle } from './carePlanTitle';
import { clinicalDateOf } from '../../data-provider/rules';
import { dosageText } from './dosageText';
import { endOnSameDay, listDateParts, type ListDateParts } from './listDateParts';
import { medicationNameOf } from './medicationName';
import { observationValueCell, type ObservationValueCell } from './observationValueCell';
import { NO_REFERENCE_NAMES, referenceName, type ReferenceNames } from './referenceNames';

/**
 * One cell of a chart tab list: plain text, a date (never broken inside its day or its time), a
 * status badge, the due date of work still to do (shown as overdue, due today or soon, in
 * colour and words), or an observation's value with its flag.
 */
export type ChartCell =
  | { kind: 'text'; text: string }
  | ({ kind: 'date' } & ListDateParts)
  | { kind: 'status'; status: string }
  | { kind: 'due'; due: string }
  | ObservationValueCell;

export interface ChartColumn {
  label: string;
  /** `names`: what the row's references point at, as the tab's search included them. */
  cell(resource: Resource, names?: ReferenceNames): ChartCell;
  /**
   * Left out when the list is narrow (the chart's tab beside the patient sidebar on a laptop): the
   * row's own page shows it, while the columns a clinician scans a list by (what, status, when
   * due) stay in view without scrolling sideways.
   */
  secondary?: true;
}

type Json = Record<string, unknown>;

const get = (resource: Resource, path: string): unknown =>
  path.split('.').reduce<unknown>((value, key) => {
    if (Array.isArray(value)) value = value[0];
    return value && typeof value === 'object' ? (value as Json)[key] : undefined;
  }, resource);

const text = (value: string | undefined): ChartCell => ({ kind: 'text', text: value ?? '' });
/** A concept, or the first of a list of them that reads as something (a report's categories). */
const concept = (value: unknown): string =>
  (Array.isArray(value) ? value : [value])
    .map((item) => formatCodeableConcept(item as CodeableConcept | undefined))
    .find(Boolean) ?? '';
/** A reference by the name of what it points at, never its bare id. */
const reference = (value: unknown, names: ReferenceNames, holder: Resource): string => {
  const ref = (Array.isArray(value) ? value[0] : value) as Reference | undefined;
  return referenceName(ref, names, holder);
};
const date = (parts: ListDateParts | undefined): ChartCell => (parts ? { kind: 'date', ...parts } : text(''));
const when = (value: unknown, withTime = true): ChartCell =>
  date(listDateParts(typeof value === 'string' ? value : undefined, withTime));

const column = (label: string, read: (resource: Resource, names: ReferenceNames) => string): ChartColumn => ({
  label,
  cell: (resource, names = NO_REFERENCE_NAMES) => text(read(resource, names)),
});
const cellColumn = (label: string, cell: (resource: Resource) => ChartCell): ChartColumn => ({ label, cell });
const secondary = (column: ChartColumn): ChartColumn => ({ ...column, secondary: true });
const statusColumn = (label = 'Status', path = 'status'): ChartColumn => ({
  label,
  cell: (resource) => {
    const value = get(resource, path);
    return typeof value === 'string' ? { kind: 'status', status: value } : text('');
  },
});
const conceptColumn = (label: string, path: string) => column(label, (r) => concept(get(r, path)));
const dateColumn = (label: string, path: string) => cellColumn(label, (r) => when(get(r, path)));
/** A day without its time, where the time of day tells the reader nothing (when a task was written). */
const dayColumn = (label: string, path: string) => cellColumn(label, (r) => when(get(r, path), false));
/** When something ended: its time alone on the day it started, which the start column shows. */
const endColumn = (label: string, path: string, startPath: string) =>
  cellColumn(label, (r) => {
    const end = listDateParts(textOf(r, path));
    return date(end && endOnSameDay(end, listDateParts(textOf(r, startPath))));
  });
const openStatuses: ReadonlySet<string> = new Set(OPEN_TASK_STATUSES);
/** A task's due date: how urgent while the task is open, a plain day once it is done or cancelled. */
const taskDueColumn: ChartColumn = {
  label: 'Due',
  cell: (resource) => {
    const due = get(resource, 'restriction.period.end');
    if (typeof due !== 'string' || !due) return text('');
    const status = get(resource, 'status');
    return typeof status === 'string' && openStatuses.has(status) ? { kind: 'due', due } : when(due);
  },
};
const referenceColumn = (label: string, path: string) => column(label, (r, names) => reference(get(r, path), names, r));
const textColumn = (label: string, path: string) =>
  column(label, (r) => {
    const value = get(r, path);
    return typeof value === 'string' ? value : '';
  });

/** What a clinician reads in each tab (app-spec §2.3): never the id or the last-updated stamp. */
const COLUMNS: Record<string, ChartColumn[]> = {
  Task: [
    column('Task', (r) => concept(get(r, 'code')) || textOf(r, 'description')),
    statusColumn(),
    secondary(statusColumn('Priority', 'priority')),
    referenceColumn('Owner', 'owner'),
    taskDueColumn,
    secondary(dayColumn('Created', 'authoredOn')),
  ],
  MedicationRequest: [
    column('Medication', (r, names) => medicationNameOf(r as MedicationRequest, names)),
    statusColumn(),
    secondary(textColumn('Intent', 'intent')),
    column('Dosage', (r) => dosageText((r as MedicationRequest).dosageInstruction)),
    secondary(referenceColumn('Requester', 'requester')),
    // The day: the time of day an order was written tells nothing and wrapped the cell in three lines.
    dayColumn('Ordered', 'authoredOn'),
  ],
  ServiceRequest: [
    conceptColumn('Order', 'code'),
    statusColumn(),
    statusColumn('Priority', 'priority'),
    secondary(referenceColumn('Requester', 'requester')),
    dateColumn('Ordered', 'authoredOn'),
  ],
  Device: [
    column('Device', (r) => textOf(r, 'deviceName.name') || concept(get(r, 'type'))),
    statusColumn(),
    secondary(conceptColumn('Type', 'type')),
    secondary(textColumn('UDI', 'udiCarrier.deviceIdentifier')),
    dateColumn('Expires', 'expirationDate'),
  ],
  DiagnosticReport: [
    conceptColumn('Report', 'code'),
    statusColumn(),
    secondary(conceptColumn('Category', 'category')),
    secondary(referenceColumn('Performer', 'performer')),
    dateColumn('Issued', 'issued'),
  ],
  DocumentReference: [
    column(
      'Document',
      (r) => textOf(r, 'description') || textOf(r, 'content.attachment.title') || concept(get(r, 'type')),
    ),
    statusColumn(),
    secondary(conceptColumn('Type', 'type')),
    secondary(referenceColumn('Author', 'author')),
    dateColumn('Date', 'date'),
  ],
  Appointment: [
    column(
      'Appointment',
      (r) => textOf(r, 'description') || concept(get(r, 'serviceType')) || concept(get(r, 'appointmentType')),
    ),
    statusColumn(),
    dateColumn('Start', 'start'),
    secondary(endColumn('End', 'end', 'start')),
    column('With', (r, names) => participantsOtherThanPatient(r, names)),
  ],
  CarePlan: [
    column('Care plan', (r) => carePlanTitle(r as CarePlan)),
    statusColumn(),
    secondary(textColumn('Intent', 'intent')),
    dayColumn('Start', 'period.start'),
    secondary(dayColumn('End', 'period.end')),
  ],
};

function textOf(resource: Resource, path: string): string {
  const value = get(resource, path);
  return typeof value === 'string' ? value : '';
}

function participantsOtherThanPatient(resource: Resource, names: ReferenceNames): string {
  const participants = (resource as unknown as Json).participant;
  return (Array.isArray(participants) ? (participants as { actor?: Reference }[]) : [])
    .map((participant) => participant.actor)
    .filter((actor) => actor && !actor.reference?.startsWith('Patient/'))
    .map((actor) => reference(actor, names, resource))
    .filter(Boolean)
    .join(', ');
}

/**
 * What another type's record is, for the fallback list: its code, else where such records keep
 * it (an immunization's vaccine, a visit's type, a medication statement's medication), else its title.
 */
const ITEM_PATHS = ['code', 'vaccineCode', 'type', 'medicationCodeableConcept', 'class'] as const;
function itemOf(resource: Resource): string {
  for (const path of ITEM_PATHS) {
    const value = get(resource, path);
    // Encounter.class is a Coding, the others concepts.
    const name = path === 'class' ? textOf(resource, 'class.display') : concept(value);
    if (name) return name;
  }
  return (
    textOf(resource, 'title') || textOf(resource, 'description') || textOf(resource, 'name') || resource.resourceType
  );
}

/** The record's status: its `status`, else the clinical status of a condition or an allergy. */
const fallbackStatusColumn: ChartColumn = {
  label: 'Status',
  cell: (resource) => {
    const status = get(resource, 'status');
    if (typeof status === 'string') return { kind: 'status', status };
    const clinical = get(resource, 'clinicalStatus.coding.code');
    return typeof clinical === 'string' ? { kind: 'status', status: clinical } : text('');
  },
};

const itemColumn = column('Item', (r) => itemOf(r));
const clinicalDateColumn = cellColumn('Date', (r) => when(clinicalDateOf(r)));

/** Columns for other types a chart path names (`/Patient/{id}/Encounter`): a display, status, date. */
const FALLBACK: ChartColumn[] = [itemColumn, fallbackStatusColumn, clinicalDateColumn];

/**
 * `/Patient/{id}/Observation`: the generic columns with the value beside what was measured — a
 * list of names alone made the clinician open every row. A narrow list drops the status first:
 * nearly all are final, and the value and its date are what is scanned.
 */
const OBSERVATION: ChartColumn[] = [
  itemColumn,
  { label: 'Value', cell: (r, names) => observationValueCell(r as Observation, names) },
  secondary(fallbackStatusColumn),
  clinicalDateColumn,
];

export function chartColumns(resourceType: string): ChartColumn[] {
  if (resourceType === 'Observation') return OBSERVATION;
  return COLUMNS[resourceType] ?? FALLBACK;
}
