import type { Annotation, CodeableConcept, Coding, Reference, Task } from '@medplum/fhirtypes';
import type { PatchOperation } from '../../data-provider/client';

/**
 * JSON Patches for the task actions (app-spec §4, §5). Every patch starts with a test that
 * meta.versionId is still the version the user loaded, so a change made meanwhile by someone else
 * fails the whole patch (412) instead of being overwritten; each field is added when absent and
 * replaced when present.
 */
export function versionGuard(task: Task): PatchOperation[] {
  const versionId = task.meta?.versionId;
  // A task without a version (never stored) cannot have been changed by anyone else.
  return versionId === undefined ? [] : [{ op: 'test', path: '/meta/versionId', value: versionId }];
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}

/** add or replace of one top-level field, by whether the task has it. */
function setField<K extends keyof Task>(task: Task, field: K, value: Task[K]): PatchOperation {
  return { op: present(task[field]) ? 'replace' : 'add', path: `/${String(field)}`, value };
}

/** Appends to an array field: add of the whole array when absent, add at the end (`/-`) when present. */
function appendTo<K extends keyof Task>(task: Task, field: K, item: unknown): PatchOperation {
  return present(task[field])
    ? { op: 'add', path: `/${String(field)}/-`, value: item }
    : { op: 'add', path: `/${String(field)}`, value: [item] };
}

function guarded(task: Task, ...operations: PatchOperation[]): PatchOperation[] {
  return [...versionGuard(task), ...operations];
}

export function statusPatch(task: Task, status: Task['status']): PatchOperation[] {
  return guarded(task, setField(task, 'status', status));
}

/** Claim and Assign/Reassign set the owner; the owner is a Practitioner (app-spec §5). */
export function ownerPatch(task: Task, owner: Reference): PatchOperation[] {
  if (!owner.reference?.startsWith('Practitioner/')) {
    throw new Error('The owner must be a Practitioner');
  }
  return guarded(task, setField(task, 'owner', owner as Task['owner']));
}

/** Assign to a Role appends a coding to performerType. */
export function performerTypePatch(task: Task, role: Coding): PatchOperation[] {
  const concept: CodeableConcept = { coding: [role], text: role.display ?? role.code };
  return guarded(task, appendTo(task, 'performerType', concept));
}

export function businessStatusPatch(task: Task, status: Coding): PatchOperation[] {
  return guarded(task, setField(task, 'businessStatus', { coding: [status], text: status.display ?? status.code }));
}

/** Add/Change Due-Date: `restriction.period.end`, creating only the levels that are missing. */
export function dueDatePatch(task: Task, end: string): PatchOperation[] {
  const restriction = task.restriction;
  if (!restriction) return guarded(task, { op: 'add', path: '/restriction', value: { period: { end } } });
  if (!restriction.period) return guarded(task, { op: 'add', path: '/restriction/period', value: { end } });
  return guarded(task, {
    op: restriction.period.end === undefined ? 'add' : 'replace',
    path: '/restriction/period/end',
    value: end,
  });
}

export function notePatch(task: Task, note: Annotation): PatchOperation[] {
  if (!note.text.trim()) throw new Error('A note needs text');
  return guarded(task, appendTo(task, 'note', note));
}

/** Review, fill and release finish the task (app-spec §4), like Complete. */
export function completePatch(task: Task): PatchOperation[] {
  return statusPatch(task, 'completed');
}
