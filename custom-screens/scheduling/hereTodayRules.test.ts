import { describe, expect, it } from 'vitest';
import type { Appointment, Bundle } from '@medplum/fhirtypes';
import { arrivalText, durationText, minutesSince } from './arrivalText';
import { arrivalTime } from './arrivalTime';
import { hereTodaySearch, localDayBounds } from './hereTodaySearch';
import { byArrival, hereTodayVisits, UNNAMED_PATIENT } from './hereTodayVisits';
import { isoWithOffset } from './bookingSlot';

/** 10:00 local time on 10 March 2026. */
const NOW = new Date(2026, 2, 10, 10, 0);
const at = (hours: number, minutes = 0) => new Date(2026, 2, 10, hours, minutes).toISOString();

function version(versionId: string, status: Appointment['status'], lastUpdated: string): Appointment {
  return { resourceType: 'Appointment', id: 'a1', status, participant: [], meta: { versionId, lastUpdated } };
}

describe('hereTodaySearch', () => {
  it("asks for today's (local) arrived and checked-in appointments, soonest first, with their people", () => {
    const query = hereTodaySearch(NOW);
    const { start, end } = localDayBounds(NOW);
    expect(start).toEqual(new Date(2026, 2, 10));
    expect(end).toEqual(new Date(2026, 2, 11));
    expect(query).toEqual({
      date: [`ge${isoWithOffset(start)}`, `lt${isoWithOffset(end)}`],
      status: 'arrived,checked-in',
      _sort: 'date',
      _include: 'Appointment:actor',
      _count: '100',
    });
  });

  it('late in the evening it is still today, not tomorrow in UTC', () => {
    const { start } = localDayBounds(new Date(2026, 2, 10, 23, 59));
    expect(start).toEqual(new Date(2026, 2, 10));
  });
});

describe('arrivalTime', () => {
  it('is the time of the version that checked the patient in, not of a later edit', () => {
    const history = [
      version('4', 'checked-in', at(9, 50)),
      version('3', 'arrived', at(9, 42)),
      version('2', 'booked', at(8, 0)),
      version('1', 'proposed', at(7, 0)),
    ];
    expect(arrivalTime(history[0] as Appointment, history)).toBe(at(9, 42));
  });

  it("reads this server's version ids (UUIDs, not numbers) by when each version was written", () => {
    const history = [
      version('0b9e6c1a-5d0f-4a8e-9a51-7d3c2e1f0a11', 'checked-in', at(9, 50)),
      version('f3a2d4c5-1b6e-4f70-8c9d-2e4a6b8c0d12', 'arrived', at(9, 42)),
      version('7c1e9b2d-3a4f-4b5c-9d6e-8f0a1b2c3d13', 'booked', at(8, 0)),
    ];
    expect(arrivalTime(history[0] as Appointment, history)).toBe(at(9, 42));
  });

  it('reads the history in the order it was written whatever order it came in', () => {
    const history = [
      version('2', 'booked', at(8, 0)),
      version('4', 'arrived', at(9, 50)),
      version('3', 'arrived', at(9, 42)),
    ];
    expect(arrivalTime(history[1] as Appointment, history)).toBe(at(9, 42));
  });

  it('a check-in undone and made again counts from the second one', () => {
    const history = [
      version('3', 'arrived', at(9, 55)),
      version('2', 'booked', at(9, 45)),
      version('1', 'arrived', at(9, 40)),
    ];
    expect(arrivalTime(history[0] as Appointment, history)).toBe(at(9, 55));
  });

  it('without a history, the last change of the appointment is the best guess', () => {
    expect(arrivalTime(version('5', 'arrived', at(9, 30)), undefined)).toBe(at(9, 30));
    expect(arrivalTime(version('5', 'arrived', at(9, 30)), [])).toBe(at(9, 30));
  });
});

describe('arrivalText', () => {
  it('says when the patient arrived and how long they have waited', () => {
    expect(arrivalText(at(9, 42), NOW)).toMatch(/^arrived 9:42\s?AM, waiting 18 min$/);
  });

  it('counts whole minutes, and hours past the hour', () => {
    expect(durationText(0)).toBe('under a minute');
    expect(durationText(59)).toBe('59 min');
    expect(durationText(60)).toBe('1 h');
    expect(durationText(65)).toBe('1 h 5 min');
    expect(minutesSince(new Date(NOW.getTime() - 90_000).toISOString(), NOW)).toBe(1);
  });

  it('a server clock a little ahead is no negative wait; an unknown arrival says so', () => {
    expect(minutesSince(new Date(NOW.getTime() + 30_000).toISOString(), NOW)).toBe(0);
    expect(arrivalText(undefined, NOW)).toBe('arrival time unknown');
    expect(arrivalText('not a time', NOW)).toBe('arrival time unknown');
  });
});

describe('hereTodayVisits', () => {
  const appointment = (id: string, participant: Appointment['participant']): Appointment => ({
    resourceType: 'Appointment',
    id,
    status: 'arrived',
    participant,
  });

  it("names the patient and clinicians by their records' current names, else the displays", () => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        {
          search: { mode: 'match' },
          resource: appointment('a1', [
            { actor: { reference: 'Patient/p1', display: 'Wendy Old-Name' }, status: 'accepted' },
            { actor: { reference: 'Practitioner/alice', display: 'Alice Carter' }, status: 'accepted' },
            { actor: { reference: 'Location/room-2', display: 'Room 2' }, status: 'accepted' },
          ]),
        },
        {
          search: { mode: 'match' },
          resource: appointment('a2', [{ actor: { reference: 'Practitioner/bob' }, status: 'accepted' }]),
        },
        {
          search: { mode: 'include' },
          resource: { resourceType: 'Patient', id: 'p1', name: [{ given: ['Wendy'], family: 'Littel' }] },
        },
      ],
    };
    const visits = hereTodayVisits(bundle);
    expect(visits.map(({ patientId, patientName, clinicians }) => ({ patientId, patientName, clinicians }))).toEqual([
      { patientId: 'p1', patientName: 'Wendy Littel', clinicians: ['Alice Carter'] },
      // No patient, a clinician without a name anywhere: the row still shows, and says so.
      { patientId: undefined, patientName: UNNAMED_PATIENT, clinicians: [] },
    ]);
  });

  it('orders by arrival, longest wait first, unknown arrivals last', () => {
    const visits = [
      { id: 'late', arrival: at(9, 50) },
      { id: 'unknown', arrival: undefined },
      { id: 'early', arrival: at(9, 10) },
    ];
    expect(byArrival(visits).map((visit) => visit.id)).toEqual(['early', 'late', 'unknown']);
  });
});
