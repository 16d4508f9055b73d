import { describe, expect, it } from 'vitest';
import type { Appointment } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../../data-provider/outcomes';
import { appointmentTitle, appointmentWhen } from './appointmentLabels';
import { appointmentsLeftOpen, certainlyAfterDeath, isLeftOpenAfterDeath } from './appointmentsLeftOpen';
import { cancelFailure, leftAsItIsMessage } from './cancelOutcomeMessages';
import { cancelledForDeath } from './cancelledForDeath';
import { deathLine } from './deathLine';
import { deceasedNoticeShown } from './deceasedNoticeShown';
import { stillOpenWords } from './stillOpenWords';
import { tasksLeftOpenWords } from './tasksLeftOpenWords';

const now = new Date(2026, 5, 15, 12, 0);
const appointment = (id: string, status: Appointment['status'], start?: string): Appointment => ({
  resourceType: 'Appointment',
  id,
  status,
  start,
  participant: [{ actor: { reference: 'Patient/p1' }, status: 'accepted' }],
});
const local = (month: number, day: number, hour = 10) => new Date(2026, month - 1, day, hour).toISOString();

describe('certainlyAfterDeath', () => {
  it('is the next day for a date, the next month or year for a partial one, the instant for a dateTime', () => {
    expect(certainlyAfterDeath({ deceasedDateTime: '2026-03-03' }, now)).toEqual(new Date(2026, 2, 4));
    expect(certainlyAfterDeath({ deceasedDateTime: '2026-03' }, now)).toEqual(new Date(2026, 3, 1));
    expect(certainlyAfterDeath({ deceasedDateTime: '2025' }, now)).toEqual(new Date(2026, 0, 1));
    expect(certainlyAfterDeath({ deceasedDateTime: '2026-03-03T14:20:00Z' }, now)).toEqual(
      new Date('2026-03-03T14:20:00Z'),
    );
  });

  it('is now without a date, with an unreadable one, or with one not yet past', () => {
    expect(certainlyAfterDeath({ deceasedBoolean: true }, now)).toBe(now);
    expect(certainlyAfterDeath({ deceasedDateTime: 'last spring' }, now)).toBe(now);
    expect(certainlyAfterDeath({ deceasedDateTime: '2026-12-01' }, now)).toBe(now);
  });
});

describe('appointments left open after the death', () => {
  const died = { deceasedDateTime: '2026-06-01' };

  it('keeps open statuses starting after the death or in the future, and those without a start', () => {
    const listed = [
      appointment('future-booked', 'booked', local(7, 1)),
      appointment('future-fulfilled', 'fulfilled', local(7, 2)),
      appointment('future-cancelled', 'cancelled', local(7, 3)),
      appointment('after-death-never-closed', 'booked', local(6, 5)),
      appointment('day-of-death', 'booked', local(6, 1, 16)),
      appointment('before-death', 'booked', local(5, 20)),
      appointment('past-fulfilled', 'fulfilled', local(5, 1)),
      appointment('waitlist-undated', 'waitlist'),
      appointment('proposed', 'proposed', local(8, 1)),
      appointment('arrived', 'arrived', local(6, 20)),
    ];
    expect(appointmentsLeftOpen(listed, died, now).map((a) => a.id)).toEqual([
      'after-death-never-closed',
      'arrived',
      'future-booked',
      'proposed',
      'waitlist-undated',
    ]);
  });

  it('keeps only what is still to come when no date of death is recorded', () => {
    expect(isLeftOpenAfterDeath(appointment('a', 'booked', local(6, 5)), { deceasedBoolean: true }, now)).toBe(false);
    expect(isLeftOpenAfterDeath(appointment('a', 'pending', local(6, 16)), { deceasedBoolean: true }, now)).toBe(true);
  });
});

describe('cancelledForDeath', () => {
  it('sets status and the pat-dec reason and keeps everything else as read', () => {
    const read: Appointment = {
      ...appointment('a1', 'booked', local(7, 1)),
      meta: { versionId: '4' },
      comment: 'Bring the blood results',
      end: local(7, 1, 11),
    };
    expect(cancelledForDeath(read)).toEqual({
      ...read,
      status: 'cancelled',
      cancelationReason: {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason',
            code: 'pat-dec',
            display: 'Patient: Deceased',
          },
        ],
        text: 'Patient: Deceased',
      },
    });
    expect(read.status).toBe('booked');
  });
});

describe('the notice’s words', () => {
  it('says when the patient died as people read dates, or that no date is recorded', () => {
    expect(deathLine({ deceasedDateTime: '2024-03-03' })).toBe('Died 3 Mar 2024');
    expect(deathLine({ deceasedBoolean: true })).toBe('Deceased (no date of death recorded)');
  });

  it('counts what is still open, leaving out what is none or not known', () => {
    expect(stillOpenWords({ count: 2, capped: false }, { count: 3, capped: false })).toEqual({
      appointments: '2 appointments',
      tasks: '3 tasks',
      verb: 'are',
    });
    expect(stillOpenWords({ count: 1, capped: false }, { count: 0, capped: false })).toEqual({
      appointments: '1 appointment',
      verb: 'is',
    });
    expect(stillOpenWords(undefined, { count: 100, capped: true })).toEqual({ tasks: '100+ tasks', verb: 'are' });
    expect(stillOpenWords({ count: 0, capped: false }, undefined)).toBeUndefined();
    expect(stillOpenWords(undefined, undefined)).toBeUndefined();
  });

  it('names an appointment by what it is for and when, as the Appointments tab does', () => {
    expect(appointmentTitle({ ...appointment('a', 'booked'), description: 'Follow-up visit' })).toBe('Follow-up visit');
    expect(appointmentTitle({ ...appointment('a', 'booked'), serviceType: [{ text: 'General practice' }] })).toBe(
      'General practice',
    );
    expect(appointmentWhen(appointment('a', 'waitlist'))).toBe('No date set');
    expect(appointmentWhen(appointment('a', 'booked', local(7, 1, 14)))).toMatch(/^1 Jul 2026, 2:00\sPM$/);
  });

  it('says why a cancel failed in the server’s words, and what a retry does after a conflict', () => {
    const conflict = new OperationOutcomeError(
      {
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'conflict', details: { text: 'Version mismatch' } }],
      },
      412,
    );
    expect(cancelFailure(conflict)).toEqual({
      message: 'Changed by someone else since this list was loaded. Try again to cancel it as it is now.',
      detail: 'Version mismatch',
    });
    expect(cancelFailure(new Error('Network down'))).toEqual({ message: 'Network down' });
    expect(leftAsItIsMessage(appointment('a', 'cancelled'))).toBe('Already cancelled by someone else: left as it is.');
    expect(leftAsItIsMessage(appointment('a', 'fulfilled'))).toBe('Now fulfilled: left as it is.');
  });
});

describe('the Tasks tab’s line', () => {
  it('asks to close the open tasks no longer needed, without repeating the notice’s name and date', () => {
    expect(tasksLeftOpenWords({ count: 3, capped: false })).toBe(
      'The patient has died and 3 tasks are still open: close the ones no longer needed.',
    );
    expect(tasksLeftOpenWords({ count: 1, capped: false })).toBe(
      'The patient has died and 1 task is still open: close it if it is no longer needed.',
    );
    expect(tasksLeftOpenWords({ count: 100, capped: true })).toBe(
      'The patient has died and 100+ tasks are still open: close the ones no longer needed.',
    );
  });

  it('says nothing when no task is open (the notice says the death) or while the count is not known', () => {
    expect(tasksLeftOpenWords({ count: 0, capped: false })).toBeUndefined();
    expect(tasksLeftOpenWords(undefined)).toBeUndefined();
  });
});

describe('where the chart shows its deceased notice', () => {
  it('for a patient recorded dead, to the care team only', () => {
    expect(deceasedNoticeShown({ deceasedDateTime: '2026-11-18' }, false)).toBe(true);
    expect(deceasedNoticeShown({ deceasedBoolean: true }, false)).toBe(true);
    expect(deceasedNoticeShown({ deceasedDateTime: '2026-11-18' }, true)).toBe(false);
    expect(deceasedNoticeShown({ deceasedBoolean: false }, false)).toBe(false);
    expect(deceasedNoticeShown(undefined, false)).toBe(false);
  });
});
