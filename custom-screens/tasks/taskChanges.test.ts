import { describe, expect, it } from 'vitest';
import type { Task } from '@medplum/fhirtypes';
import { formatDate, formatDateTime } from '../../data-provider/formatting';
import { readableValue, taskChangeLine, taskChanges } from './taskChanges';

const task = (extra: Partial<Task> = {}): Task => ({
  resourceType: 'Task',
  id: 't1',
  meta: { versionId: '1', lastUpdated: '2026-11-27T09:00:00Z' },
  status: 'ready',
  intent: 'order',
  ...extra,
});

const alice = { reference: 'Practitioner/p1', display: 'Dr. Alice Carter' };
const lines = (before: Task, after: Task) => taskChanges(before, after).map(taskChangeLine);

describe('task timeline changes', () => {
  it('say an added note by its text and author, not as JSON with an ISO time', () => {
    const first = { text: 'Called the lab', time: '2026-11-28T06:50:23.994Z', authorReference: alice };
    const second = { text: 'Results pending', time: '2026-11-28T06:51:11.094Z', authorReference: alice };
    const changed = lines(task({ note: [first] }), task({ meta: { versionId: '2' }, note: [first, second] }));
    expect(changed).toEqual(['Note added: “Results pending” (Dr. Alice Carter)']);
    expect(changed.join()).not.toMatch(/[{}]|T06:51/);
  });

  it('say status, owner, due date and roles in words; the version stamp is no change', () => {
    const before = task({ restriction: { period: { end: '2026-12-03' } } });
    const after = task({
      meta: { versionId: '2', lastUpdated: '2026-11-28T09:00:00Z' },
      status: 'on-hold',
      owner: alice,
      restriction: { period: { end: '2026-12-10' } },
      performerType: [{ coding: [{ code: 'nurse', display: 'Nurse' }] }],
      businessStatus: { text: 'Waiting for results' },
    });
    expect(lines(before, after)).toEqual([
      'Status: ready → on-hold',
      `Due date: ${formatDate('2026-12-03')} → ${formatDate('2026-12-10')}`,
      'Owner: — → Dr. Alice Carter',
      'Role added: Nurse',
      'Business status: — → Waiting for results',
    ]);
  });

  it('read dates, references and concepts of any other field as a person would', () => {
    expect(readableValue('2026-11-28T06:51:11.094Z')).toBe(formatDateTime('2026-11-28T06:51:11.094Z'));
    expect(readableValue({ reference: 'Patient/x' })).toBe('Patient/x');
    expect(readableValue({ coding: [{ code: 'c', display: 'Shown' }] })).toBe('Shown');
    expect(lines(task(), task({ executionPeriod: { start: '2026-11-01' } }))).toEqual([
      `Execution period: — → ${formatDate('2026-11-01')}`,
    ]);
    expect(lines(task(), task({ meta: { versionId: '9' } }))).toEqual([]);
  });
});
