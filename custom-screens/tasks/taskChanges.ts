import type { Annotation, CodeableConcept, Reference, Task } from '@medplum/fhirtypes';
import { formatCodeableConcept, formatDate, formatDateTime } from '../../data-provider/formatting';
import { versionDiff } from '../../src/resources/versionDiff';

/** One change between two versions of a task, in the words of the task page. */
export interface TaskChange {
  label: string;
  /** What it was ('' when it had none). */
  before: string;
  /** What it is now ('' when removed). */
  after: string;
  /** Appended to a list (a note, a role): there is no "before" to show. */
  added?: boolean;
}

/** The line the Timeline tab shows for a change. */
export function taskChangeLine(change: TaskChange): string {
  if (change.added) return `${change.label}: ${change.after}`;
  return `${change.label}: ${change.before || '—'} → ${change.after || '—'}`;
}

type Json = Record<string, unknown>;

const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const datePattern = /^\d{4}(-\d{2}(-\d{2})?)?$/;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A value as a person reads it: a day or a time instead of an ISO stamp, a reference by its name,
 * a concept by its text. JSON is the last resort, for shapes the task page has no words for.
 */
export function readableValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'string') {
    if (instantPattern.test(value)) return formatDateTime(value);
    if (datePattern.test(value)) return formatDate(value);
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(readableValue).filter(Boolean).join(', ');
  if (isObject(value)) {
    if (typeof value.display === 'string') return value.display;
    if (typeof value.reference === 'string') return value.reference;
    if (Array.isArray(value.coding) || typeof value.text === 'string') {
      return formatCodeableConcept(value as CodeableConcept);
    }
    if (typeof value.end === 'string' || typeof value.start === 'string') {
      return [value.start, value.end].map(readableValue).filter(Boolean).join(' – ');
    }
  }
  return JSON.stringify(value);
}

function noteLine(note: Annotation): string {
  const author = (note.authorReference as Reference | undefined)?.display ?? note.authorString;
  return author ? `“${note.text ?? ''}” (${author})` : `“${note.text ?? ''}”`;
}

const LABELS: Record<string, string> = {
  status: 'Status',
  businessStatus: 'Business status',
  owner: 'Owner',
  priority: 'Priority',
  description: 'Description',
  code: 'Task',
  focus: 'Focus',
  for: 'For',
  intent: 'Intent',
  statusReason: 'Status reason',
  executionPeriod: 'Execution period',
  authoredOn: 'Created',
  restriction: 'Due date',
  performerType: 'Roles',
  note: 'Notes',
};

/** "statusReason" → "Status reason": a field the task page has no label for still reads as words. */
function labelOf(key: string): string {
  return LABELS[key] ?? key.replace(/([A-Z])/g, ' $1').replace(/^./, (first) => first.toUpperCase());
}

/**
 * What changed from one version of a task to the next (the Timeline tab), one line per field:
 * notes and roles by what was added, the due date as a day, owners by name. Without this the tab
 * showed the raw diff (`note[1]: — → {"text":…,"time":"2026-11-28T06:51:11.094Z",…}`).
 */
export function taskChanges(before: Task, after: Task): TaskChange[] {
  const previous = before as unknown as Json;
  const current = after as unknown as Json;
  const keys = [...new Set([...Object.keys(previous), ...Object.keys(current)])].filter(
    (key) => key !== 'meta' && key !== 'id' && key !== 'resourceType',
  );
  const changes: TaskChange[] = [];
  for (const key of keys) {
    if (versionDiff(previous[key], current[key]).length === 0) continue;
    if (key === 'note') {
      const old = before.note ?? [];
      const added = (after.note ?? []).slice(old.length);
      // Notes are only ever appended (app-spec §4); anything else falls through to a plain before/after.
      const appended = old.every((note, index) => versionDiff(note, after.note?.[index]).length === 0);
      if (appended && added.length > 0) {
        for (const note of added) changes.push({ label: 'Note added', before: '', after: noteLine(note), added: true });
        continue;
      }
    }
    if (key === 'performerType') {
      const old = before.performerType ?? [];
      const added = (after.performerType ?? []).slice(old.length);
      if (
        added.length > 0 &&
        old.every((role, index) => versionDiff(role, after.performerType?.[index]).length === 0)
      ) {
        for (const role of added)
          changes.push({ label: 'Role added', before: '', after: readableValue(role), added: true });
        continue;
      }
    }
    if (key === 'restriction') {
      changes.push({
        label: labelOf(key),
        before: readableValue(before.restriction?.period?.end),
        after: readableValue(after.restriction?.period?.end),
      });
      continue;
    }
    changes.push({ label: labelOf(key), before: readableValue(previous[key]), after: readableValue(current[key]) });
  }
  return changes;
}
