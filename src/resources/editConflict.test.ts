import { describe, expect, it } from 'vitest';
import type { ChargeItem } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { changedElements, editConflictMessage, ifMatchOptions, isEditConflict } from './editConflict';

const conflict = (status: number) =>
  new OperationOutcomeError(
    { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'conflict', details: { text: 'x' } }] },
    status,
  );

describe('editConflict', () => {
  it('sends If-Match with the version the form was built from, and nothing for a new resource', () => {
    expect(ifMatchOptions({ resourceType: 'ChargeItem', id: 'c1', meta: { versionId: '3' } } as ChargeItem)).toEqual({
      headers: { 'If-Match': 'W/"3"' },
    });
    expect(ifMatchOptions({ resourceType: 'ChargeItem' } as ChargeItem)).toEqual({});
    expect(ifMatchOptions({ resourceType: 'ChargeItem', id: 'c1', meta: {} } as ChargeItem)).toEqual({});
  });

  it('takes a 412 or a 409 for a conflict, nothing else', () => {
    expect(isEditConflict(conflict(412))).toBe(true);
    expect(isEditConflict(conflict(409))).toBe(true);
    expect(isEditConflict(conflict(400))).toBe(false);
    expect(isEditConflict(conflict(422))).toBe(false);
    expect(isEditConflict(new Error('Precondition Failed'))).toBe(false);
    expect(isEditConflict(undefined)).toBe(false);
  });

  it('names the type in the message', () => {
    expect(editConflictMessage('ChargeItem')).toBe('Another user modified this ChargeItem since you opened it.');
  });

  it('lists the top-level elements the other user changed, meta left out', () => {
    const base = {
      resourceType: 'ChargeItem',
      id: 'c1',
      meta: { versionId: '1' },
      status: 'billable',
      note: [{ text: 'a' }],
    } as ChargeItem;
    const theirs = {
      ...base,
      meta: { versionId: '2' },
      overrideReason: 'Discount',
      note: [{ text: 'a' }, { text: 'b' }],
    } as ChargeItem;
    expect(changedElements(base, theirs)).toEqual(['note', 'overrideReason']);
    expect(changedElements(base, { ...base, meta: { versionId: '2' } })).toEqual([]);
  });
});
