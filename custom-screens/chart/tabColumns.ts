import type { CodeableConcept, Reference, Resource } from '@medplum/fhirtypes';
import { formatCodeableConcept, formatDate, formatDateTime } from '../../data-provider/formatting';
import { OPEN_TASK_STATUSES } from '../tasks/myTaskRules';

/**
 * One cell of a chart tab list: plain text, a status badge, or the due date of work still to do
 * (shown as overdue, due today or soon, in colour and words).
 */
export type ChartCell =
  { kind: 'text'; text: string } | { kind: 'status'; status: string } | { kind: 'due'; due: string };

export interface ChartColumn {
  label: string;
  cell(resource: Resource): ChartCell;
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
const concept = (value: unknown): string => formatCodeableConcept(value as CodeableConcept | undefined);
const reference = (value: unknown): string => {
  const ref = (Array.isArray(value) ? value[0] : value) as Reference | undefined;
  return ref?.display ?? ref?.reference ?? '';
};
const when = (value: unknown): string => {
  if (typeof value !== 'string' || !value) return '';
  // A date without a time reads as a day; an instant with its time.
  return value.length <= 10 ? formatDate(value) : formatDateTime(value);
};

const column = (label: string, read: (resource: Resource) => string): ChartColumn => ({
  label,
  cell: (resource) => text(read(resource)),
});
const secondary = (column: ChartColumn): ChartColumn => ({ ...column, secondary: true });
const statusColumn = (label = 'Status', path = 'status'): ChartColumn => ({
  label,
  cell: (resource) => {
    const value = get(resource, path);
    return typeof value === 'string' ? { kind: 'status', status: value } : text('');
  },
});
const conceptColumn = (label: string, path: string) => column(label, (r) => concept(get(r, path)));
const dateColumn = (label: string, path: string) => column(label, (r) => when(get(r, path)));
/** A day without its time, where the time of day tells the reader nothing (when a task was written). */
const dayColumn = (label: string, path: string) =>
  column(label, (r) => {
    const value = get(r, path);
    return typeof value === 'string' && value ? formatDate(value) : '';
  });
const openStatuses: ReadonlySet<string> = new Set(OPEN_TASK_STATUSES);
/** A task's due date: how urgent while the task is open, a plain day once it is done or cancelled. */
const taskDueColumn: ChartColumn = {
  label: 'Due',
  cell: (resource) => {
    const due = get(resource, 'restriction.period.end');
    if (typeof due !== 'string' || !due) return text('');
    const status = get(resource, 'status');
    return typeof status === 'string' && openStatuses.has(status) ? { kind: 'due', due } : text(when(due));
  },
};
const referenceColumn = (label: string, path: string) => column(label, (r) => reference(get(r, path)));
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
    column(
      'Medication',
      (r) => concept(get(r, 'medicationCodeableConcept')) || reference(get(r, 'medicationReference')),
    ),
    statusColumn(),
    secondary(textColumn('Intent', 'intent')),
    column('Dosage', (r) => textOf(r, 'dosageInstruction.text')),
    secondary(referenceColumn('Requester', 'requester')),
    dateColumn('Ordered', 'authoredOn'),
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
    secondary(dateColumn('End', 'end')),
    column('With', (r) => participantsOtherThanPatient(r)),
  ],
  CarePlan: [
    column('Care plan', (r) => textOf(r, 'title') || concept(get(r, 'category'))),
    statusColumn(),
    secondary(textColumn('Intent', 'intent')),
    dateColumn('Start', 'period.start'),
    secondary(dateColumn('End', 'period.end')),
  ],
};

function textOf(resource: Resource, path: string): string {
  const value = get(resource, path);
  return typeof value === 'string' ? value : '';
}

function participantsOtherThanPatient(resource: Resource): string {
  const participants = (resource as unknown as Json).participant;
  return (Array.isArray(participants) ? (participants as { actor?: Reference }[]) : [])
    .map((participant) => participant.actor)
    .filter((actor) => actor && !actor.reference?.startsWith('Patient/'))
    .map((actor) => reference(actor))
    .join(', ');
}

/** Columns for other types a chart path names (`/Patient/{id}/Observation`): a display, status, date. */
const FALLBACK: ChartColumn[] = [
  column('Item', (r) => concept(get(r, 'code')) || textOf(r, 'title') || textOf(r, 'description') || r.resourceType),
  statusColumn(),
  column('Date', (r) =>
    when(get(r, 'effectiveDateTime') ?? get(r, 'issued') ?? get(r, 'authoredOn') ?? get(r, 'date')),
  ),
];

export function chartColumns(resourceType: string): ChartColumn[] {
  return COLUMNS[resourceType] ?? FALLBACK;
}
