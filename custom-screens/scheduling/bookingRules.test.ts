import { describe, expect, it } from 'vitest';
import type { Appointment, Bundle } from '@medplum/fhirtypes';
import { clashMessage, findClashes, intervalOf, overlaps } from './appointmentClashes';
import { APPOINTMENT_TYPE_SYSTEM } from './appointmentTypes';
import { draftToAppointment } from './bookedAppointment';
import { EMPTY_BOOKING_DRAFT, type BookingDraft } from './bookingDraft';
import { bookingDraftKey } from './bookingDraftKey';
import { DURATION_RANGE, END_BEFORE_START, PAST_START, bookingErrors } from './bookingErrors';
import { fieldOfIssuePath, issuesByField } from './bookingIssues';
import { endFromDuration, isoWithOffset, localDateTime, slotOf } from './bookingSlot';
import { clashSearch, includedNames } from './clashSearch';

const NOW = new Date(2030, 0, 15, 8, 0);
const at = (hours: number, minutes = 0, day = 15) => new Date(2030, 0, day, hours, minutes);

const valid: BookingDraft = {
  ...EMPTY_BOOKING_DRAFT,
  patient: { reference: 'Patient/wendy', display: 'Wendy Littel' },
  clinician: { reference: 'Practitioner/alice', display: 'Alice Carter' },
  date: '2030-01-15',
  startTime: '09:00',
};

describe('bookingErrors', () => {
  it('accepts a complete booking in the future', () => {
    expect(bookingErrors(valid, NOW)).toEqual({});
  });

  it('names every missing required field under its own field', () => {
    const errors = bookingErrors({ ...EMPTY_BOOKING_DRAFT, duration: '' }, NOW);
    expect(errors).toEqual({
      patient: 'Choose the patient',
      clinician: 'Choose the clinician',
      date: 'Date is required',
      startTime: 'Start time is required',
      duration: 'Duration is required',
    });
  });

  it('asks for an end time when the length is given by one', () => {
    expect(bookingErrors({ ...valid, endBy: 'endTime' }, NOW)).toEqual({ endTime: 'End time is required' });
  });

  it('refuses an end at or before the start', () => {
    expect(bookingErrors({ ...valid, endBy: 'endTime', endTime: '08:30' }, NOW)).toEqual({ endTime: END_BEFORE_START });
    expect(bookingErrors({ ...valid, endBy: 'endTime', endTime: '09:00' }, NOW)).toEqual({ endTime: END_BEFORE_START });
  });

  it('keeps the length sane: 5 to 480 minutes', () => {
    expect(bookingErrors({ ...valid, duration: '4' }, NOW)).toEqual({ duration: DURATION_RANGE });
    expect(bookingErrors({ ...valid, duration: '481' }, NOW)).toEqual({ duration: DURATION_RANGE });
    expect(bookingErrors({ ...valid, duration: '5' }, NOW)).toEqual({});
    expect(bookingErrors({ ...valid, duration: '480' }, NOW)).toEqual({});
    expect(bookingErrors({ ...valid, endBy: 'endTime', endTime: '09:03' }, NOW)).toEqual({ endTime: DURATION_RANGE });
  });

  it('refuses a booked start in the past: under the time today, under the date on a day gone', () => {
    expect(bookingErrors({ ...valid, startTime: '07:59' }, NOW)).toEqual({ startTime: PAST_START });
    expect(bookingErrors({ ...valid, date: '2030-01-14' }, NOW)).toEqual({ date: PAST_START });
  });

  it('lets a request name a past time: it records what was asked for', () => {
    expect(bookingErrors({ ...valid, startTime: '07:00', kind: 'proposed' }, NOW)).toEqual({});
  });

  it('refuses dates and times that do not exist', () => {
    expect(bookingErrors({ ...valid, date: '2030-02-31' }, NOW).date).toBe('Date must be a date (YYYY-MM-DD)');
    expect(bookingErrors({ ...valid, startTime: '25:00' }, NOW).startTime).toBe('Start time must be a time (HH:MM)');
  });
});

describe('the slot', () => {
  it('reads the date and time on the browser clock', () => {
    expect(localDateTime('2030-01-15', '09:05')).toEqual(at(9, 5));
    expect(localDateTime('2030-02-31', '09:05')).toBeUndefined();
  });

  it('ends the duration after the start', () => {
    expect(endFromDuration(at(9), 20)).toEqual(at(9, 20));
    expect(endFromDuration(at(23, 50), 20)).toEqual(at(0, 10, 16));
  });

  it('is the start plus the duration, or the start to the end time', () => {
    expect(slotOf(valid)).toEqual({ start: at(9), end: at(9, 20), minutes: 20 });
    expect(slotOf({ ...valid, endBy: 'endTime', endTime: '10:15' })).toEqual({
      start: at(9),
      end: at(10, 15),
      minutes: 75,
    });
    expect(slotOf({ ...valid, startTime: '' })).toBeUndefined();
  });

  it('writes instants with the browser offset, as the local time typed', () => {
    const text = isoWithOffset(at(9));
    expect(text).toMatch(/^2030-01-15T09:00:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(text)).toBe(at(9).getTime());
  });
});

const appointment = (id: string, start: Date, end: Date, extra: Partial<Appointment> = {}): Appointment => ({
  resourceType: 'Appointment',
  id,
  status: 'booked',
  start: start.toISOString(),
  end: end.toISOString(),
  participant: [
    { actor: { reference: 'Patient/other', display: 'Oscar Other' }, status: 'accepted' },
    { actor: { reference: 'Practitioner/alice' }, status: 'accepted' },
  ],
  ...extra,
});
const slot = { start: at(9), end: at(9, 20), minutes: 20 };
const who = { clinician: 'Practitioner/alice', patient: 'Patient/wendy' };

describe('clash detection', () => {
  it('counts shared time, not slots that only touch', () => {
    expect(overlaps(slot, { start: at(9, 10), end: at(9, 30) })).toBe(true);
    expect(overlaps(slot, { start: at(8, 30), end: at(10) })).toBe(true);
    expect(overlaps(slot, { start: at(9, 20), end: at(9, 40) })).toBe(false);
    expect(overlaps(slot, { start: at(8, 40), end: at(9) })).toBe(false);
  });

  it('finds the clinician’s overlapping appointments, once each, earliest first', () => {
    const later = appointment('b', at(9, 15), at(9, 45));
    const earlier = appointment('a', at(8, 50), at(9, 5));
    const clashes = findClashes(slot, [later, earlier, later], who);
    expect(clashes.map((clash) => [clash.appointment.id, clash.party])).toEqual([
      ['a', 'clinician'],
      ['b', 'clinician'],
    ]);
  });

  it('ignores back-to-back appointments and those that hold no slot', () => {
    const candidates = [
      appointment('before', at(8, 40), at(9)),
      appointment('after', at(9, 20), at(9, 40)),
      appointment('cancelled', at(9), at(9, 20), { status: 'cancelled' }),
      appointment('proposed', at(9), at(9, 20), { status: 'proposed' }),
      appointment('noshow', at(9), at(9, 20), { status: 'noshow' }),
    ];
    expect(findClashes(slot, candidates, who)).toEqual([]);
  });

  it('counts arrived and checked-in, and an end given only by minutes', () => {
    const arrived = appointment('arrived', at(9), at(9, 20), { status: 'arrived' });
    const byMinutes = appointment('minutes', at(8, 45), at(8, 45), { status: 'checked-in', end: undefined });
    byMinutes.minutesDuration = 30;
    expect(intervalOf(byMinutes)).toEqual({ start: at(8, 45), end: at(9, 15) });
    expect(findClashes(slot, [arrived, byMinutes], who).map((clash) => clash.appointment.id)).toEqual([
      'minutes',
      'arrived',
    ]);
  });

  it('finds the patient’s appointment with another clinician', () => {
    const elsewhere = appointment('p', at(9, 10), at(9, 30), {
      participant: [
        { actor: { reference: 'Patient/wendy' }, status: 'accepted' },
        { actor: { reference: 'Practitioner/bob' }, status: 'accepted' },
      ],
    });
    expect(findClashes(slot, [elsewhere], who).map((clash) => clash.party)).toEqual(['patient']);
  });

  it('ignores appointments of neither', () => {
    const unrelated = appointment('x', at(9), at(9, 20), {
      participant: [{ actor: { reference: 'Practitioner/bob' }, status: 'accepted' }],
    });
    expect(findClashes(slot, [unrelated], who)).toEqual([]);
  });

  it('words the warning by whose diary it is in', () => {
    const names = { clinician: 'Dr. Alice Carter', patient: 'Wendy Littel' };
    const [mine] = findClashes(slot, [appointment('a', at(9), at(9, 20))], who);
    expect(clashMessage(mine!, names, new Map(), 'en-US')).toBe(
      'Dr. Alice Carter already has Oscar Other at 9:00 AM–9:20 AM',
    );
    const theirs = appointment('p', at(9, 10), at(9, 30), {
      participant: [
        { actor: { reference: 'Patient/wendy' }, status: 'accepted' },
        { actor: { reference: 'Practitioner/bob' }, status: 'accepted' },
      ],
    });
    const [patientClash] = findClashes(slot, [theirs], who);
    const included = new Map([['Practitioner/bob', 'Bob Lee']]);
    expect(clashMessage(patientClash!, names, included, 'en-US')).toBe(
      'Wendy Littel already has an appointment with Bob Lee at 9:10 AM–9:30 AM',
    );
  });
});

describe('clashSearch', () => {
  it('asks for slot-holding appointments starting up to the longest length before the slot', () => {
    const query = clashSearch('Practitioner/alice', slot);
    expect(query).toEqual({
      actor: 'Practitioner/alice',
      date: [`ge${isoWithOffset(at(1))}`, `lt${isoWithOffset(at(9, 20))}`],
      status: 'booked,arrived,checked-in',
      _include: 'Appointment:actor',
      _count: '100',
    });
  });

  it('names the included participants', () => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        { resource: appointment('a', at(9), at(9, 20)), search: { mode: 'match' } },
        {
          resource: { resourceType: 'Practitioner', id: 'alice', name: [{ given: ['Alice'], family: 'Carter' }] },
          search: { mode: 'include' },
        },
      ],
    };
    expect(includedNames(bundle)).toEqual(new Map([['Practitioner/alice', 'Alice Carter']]));
  });
});

describe('draftToAppointment', () => {
  it('builds one booked Appointment with both participants accepted', () => {
    const built = draftToAppointment(
      { ...valid, appointmentType: 'FOLLOWUP', description: '  Blood pressure review ' },
      { start: at(9), end: at(9, 20), minutes: 20 },
    );
    expect(built).toEqual({
      resourceType: 'Appointment',
      status: 'booked',
      start: isoWithOffset(at(9)),
      end: isoWithOffset(at(9, 20)),
      minutesDuration: 20,
      appointmentType: {
        coding: [
          {
            system: APPOINTMENT_TYPE_SYSTEM,
            code: 'FOLLOWUP',
            display: 'A follow up visit from a previous appointment',
          },
        ],
      },
      description: 'Blood pressure review',
      participant: [
        { actor: { reference: 'Patient/wendy', display: 'Wendy Littel' }, required: 'required', status: 'accepted' },
        {
          actor: { reference: 'Practitioner/alice', display: 'Alice Carter' },
          required: 'required',
          status: 'accepted',
        },
      ],
    });
  });

  it('makes a request proposed, with the clinician still to accept, and leaves out what was not given', () => {
    const built = draftToAppointment({ ...valid, kind: 'proposed' }, { start: at(9), end: at(9, 20), minutes: 20 });
    expect(built.status).toBe('proposed');
    expect(built.participant[1]?.status).toBe('needs-action');
    expect(built).not.toHaveProperty('appointmentType');
    expect(built).not.toHaveProperty('description');
  });
});

describe('server issues', () => {
  it('go under the field their path names, by participant order', () => {
    expect(fieldOfIssuePath('Appointment.participant[0].actor', valid)).toBe('patient');
    expect(fieldOfIssuePath('Appointment.participant[1].actor', valid)).toBe('clinician');
    expect(fieldOfIssuePath('Appointment.participant', valid)).toBe('patient');
    expect(fieldOfIssuePath('Appointment.start', valid)).toBe('startTime');
    expect(fieldOfIssuePath('Appointment.end', valid)).toBe('duration');
    expect(fieldOfIssuePath('Appointment.end', { ...valid, endBy: 'endTime' })).toBe('endTime');
    expect(fieldOfIssuePath('Appointment.status', valid)).toBeUndefined();
  });

  it('without a field, are kept for the form’s alert', () => {
    const mapped = issuesByField(
      [
        { severity: 'error', code: 'invalid', expression: ['Appointment.start'], details: { text: 'Bad start' } },
        { severity: 'error', code: 'forbidden', diagnostics: 'Not allowed' },
      ],
      valid,
    );
    expect(mapped).toEqual({ fields: { startTime: 'Bad start' }, general: ['Not allowed'] });
  });
});

describe('bookingDraftKey', () => {
  it('is per account, and none without one', () => {
    expect(bookingDraftKey('Practitioner/alice')).toBe('hearth.bookingDraft.Practitioner/alice|');
    expect(bookingDraftKey(undefined)).toBeUndefined();
  });
});
