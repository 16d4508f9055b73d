import { describe, expect, it } from 'vitest';
import type { Appointment } from '@medplum/fhirtypes';
import {
  appointmentActions,
  bookedAppointment,
  cancelledAppointment,
  CANCELLATION_REASON_SYSTEM,
  checkedInAppointment,
  declinedAppointment,
  fulfilledAppointment,
  noShowAppointment,
  reasonText,
  statusChip,
} from './appointmentActionRules';

/** Noon local time on 10 March 2026: "today" in every case below. */
const now = new Date(2026, 2, 10, 12, 0);
const at = (day: number, hours: number, minutes = 0) => new Date(2026, 2, day, hours, minutes).toISOString();

function appointment(status: Appointment['status'], start?: string, end?: string): Appointment {
  return {
    resourceType: 'Appointment',
    id: 'a1',
    meta: { versionId: '3' },
    status,
    ...(start ? { start } : {}),
    ...(end ? { end } : {}),
    description: 'Blood pressure check',
    participant: [
      { actor: { reference: 'Patient/p1', display: 'Wendy Littel' }, status: 'needs-action' },
      { actor: { reference: 'Practitioner/alice' }, status: 'accepted' },
      { type: [{ text: 'Room' }] } as Appointment['participant'][number],
    ],
  };
}

describe('appointmentActions', () => {
  it('offers Book and Decline on a request with a time ahead', () => {
    for (const status of ['proposed', 'pending', 'waitlist'] as const) {
      expect(appointmentActions(appointment(status, at(12, 9), at(12, 9, 20)), now)).toEqual({
        actions: ['book', 'decline'],
        terminal: false,
      });
    }
  });

  it('only Decline, saying why, on a request without a time or whose time has passed', () => {
    expect(appointmentActions(appointment('proposed'), now)).toEqual({
      actions: ['decline'],
      bookBlocked: 'noTime',
      terminal: false,
    });
    // A start without an end is no slot either (app-2).
    expect(appointmentActions(appointment('proposed', at(12, 9)), now).bookBlocked).toBe('noTime');
    expect(appointmentActions(appointment('proposed', at(9, 9), at(9, 9, 20)), now)).toEqual({
      actions: ['decline'],
      bookBlocked: 'pastTime',
      terminal: false,
    });
  });

  it('Cancel on a booked appointment ahead, with Check in on its day only', () => {
    expect(appointmentActions(appointment('booked', at(11, 9), at(11, 9, 20)), now).actions).toEqual(['cancel']);
    expect(appointmentActions(appointment('booked', at(10, 15), at(10, 15, 20)), now).actions).toEqual([
      'checkIn',
      'cancel',
    ]);
  });

  it('Mark fulfilled and No-show once a booked start has passed; Check in still on the day', () => {
    expect(appointmentActions(appointment('booked', at(3, 9), at(3, 9, 20)), now).actions).toEqual([
      'fulfil',
      'noShow',
    ]);
    expect(appointmentActions(appointment('booked', at(10, 11, 50), at(10, 12, 10)), now).actions).toEqual([
      'checkIn',
      'fulfil',
      'noShow',
    ]);
  });

  it('Mark fulfilled for a patient who has arrived; No-show too once the start has passed', () => {
    expect(appointmentActions(appointment('arrived', at(10, 12, 30), at(10, 12, 50)), now).actions).toEqual(['fulfil']);
    expect(appointmentActions(appointment('arrived', at(10, 11), at(10, 11, 20)), now).actions).toEqual([
      'fulfil',
      'noShow',
    ]);
    expect(appointmentActions(appointment('checked-in', at(1, 11), at(1, 11, 20)), now).actions).toEqual([
      'fulfil',
      'noShow',
    ]);
  });

  it('nothing in the terminal states', () => {
    for (const status of ['fulfilled', 'cancelled', 'noshow', 'entered-in-error'] as const) {
      expect(appointmentActions(appointment(status, at(12, 9), at(12, 9, 20)), now)).toEqual({
        actions: [],
        terminal: true,
      });
    }
  });

  it('a booked appointment without a start can only be cancelled', () => {
    expect(appointmentActions(appointment('booked'), now).actions).toEqual(['cancel']);
  });
});

describe('the appointment each action writes', () => {
  const request = appointment('proposed', at(12, 9), at(12, 9, 20));

  it('Book: booked, those still to answer accepted, the rest as read', () => {
    const booked = bookedAppointment({ ...request, cancelationReason: { text: 'stale' } });
    expect(booked.status).toBe('booked');
    expect(booked.participant.map((participant) => participant.status)).toEqual(['accepted', 'accepted', undefined]);
    expect(booked.cancelationReason).toBeUndefined();
    expect(booked.meta).toEqual({ versionId: '3' });
    expect(booked.description).toBe('Blood pressure check');
    expect(booked.start).toBe(request.start);
  });

  it('Decline: cancelled, "Declined by the clinic" with the typed reason, participants declined', () => {
    const declined = declinedAppointment(request, '  No slots for this service  ');
    expect(declined.status).toBe('cancelled');
    expect(declined.cancelationReason).toEqual({
      coding: [{ system: CANCELLATION_REASON_SYSTEM, code: 'prov', display: 'Provider' }],
      text: 'Declined by the clinic: No slots for this service',
    });
    // Only participants that carry a status get "declined".
    expect(declined.participant.map((participant) => participant.status)).toEqual(['declined', 'declined', undefined]);
    expect(declinedAppointment(request).cancelationReason?.text).toBe('Declined by the clinic');
    expect(declinedAppointment(request, '   ').cancelationReason?.text).toBe('Declined by the clinic');
  });

  it('Cancel: cancelled with the reason; participants untouched', () => {
    const booked = appointment('booked', at(12, 9), at(12, 9, 20));
    const cancelled = cancelledAppointment(booked, ' Patient is travelling ');
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelationReason).toEqual({ text: 'Patient is travelling' });
    expect(cancelled.participant).toEqual(booked.participant);
  });

  it('Check in, Mark fulfilled, No-show: the status only (a reason kept only where R4 allows it)', () => {
    const booked = { ...appointment('booked', at(10, 9), at(10, 9, 20)), cancelationReason: { text: 'old' } };
    expect(checkedInAppointment(booked)).toEqual({
      ...appointment('booked', at(10, 9), at(10, 9, 20)),
      status: 'arrived',
    });
    expect(fulfilledAppointment(booked).status).toBe('fulfilled');
    expect(fulfilledAppointment(booked).cancelationReason).toBeUndefined();
    expect(noShowAppointment(booked)).toEqual({ ...booked, status: 'noshow' });
  });
});

describe('status chip and reason', () => {
  it('a word and a colour per status', () => {
    // The colours of the app's status badges (app-spec §4).
    expect(statusChip('proposed')).toEqual({ label: 'Requested', colour: 'blue' });
    expect(statusChip('booked')).toEqual({ label: 'Booked', colour: 'blue' });
    expect(statusChip('noshow')).toEqual({ label: 'No-show', colour: 'red' });
    expect(statusChip('cancelled')).toEqual({ label: 'Cancelled', colour: 'red' });
    expect(statusChip('fulfilled')).toEqual({ label: 'Fulfilled', colour: 'green' });
    expect(statusChip('waitlist')).toEqual({ label: 'Waitlisted', colour: 'gray' });
  });

  it('the reason as its text, else its codes', () => {
    expect(reasonText({ text: 'Patient is travelling' })).toBe('Patient is travelling');
    expect(reasonText({ coding: [{ code: 'pat-dec', display: 'Patient: Deceased' }] })).toBe('Patient: Deceased');
    expect(reasonText({ coding: [{ code: 'oth-weath' }] })).toBe('oth-weath');
    expect(reasonText(undefined)).toBeUndefined();
  });
});
