import { describe, expect, it } from 'vitest';
import { CLINIC_HOURS, clinicDay, clinicDayPatients, FOLLOW_UP_MINUTES, type ClinicDay } from './demoClinicDay';

const MINUTE = 60_000;

/** `hh:mm` on the clock `offset` minutes east of UTC: what the desk reads. */
const clock = (instant: Date | undefined, offset: number) =>
  instant ? new Date(instant.getTime() + offset * MINUTE).toISOString().slice(11, 16) : undefined;

/** The day's slots as that clock reads them. */
function read(day: ClinicDay, offset: number) {
  return {
    arrived: clock(day.arrived?.start, offset),
    later: clock(day.later?.start, offset),
    earlier: clock(day.earlier?.start, offset),
  };
}

/** The instant that clock shows `hhmm` on 15 June 2026. */
const at = (hhmm: string, offset = 0) => new Date(Date.parse(`2026-06-15T${hhmm}:00Z`) - offset * MINUTE);

describe("the demo clinic's day of the first start", () => {
  it('in opening hours: one waiting for the next quarter hour, one later, one seen before', () => {
    expect(read(clinicDay(at('11:22'), 0), 0)).toEqual({ arrived: '11:30', later: '13:00', earlier: '09:45' });
    // A few minutes early at least: 11:26 waits for 11:45, not 11:30.
    expect(read(clinicDay(at('11:26'), 0), 0).arrived).toBe('11:45');
    const day = clinicDay(at('11:22'), 0);
    expect(day.arrived!.end.getTime() - day.arrived!.start.getTime()).toBe(FOLLOW_UP_MINUTES * MINUTE);
  });

  it('reads the clock of the clinic, not UTC', () => {
    // 11:22 in Sydney (UTC+10) is 01:22 UTC; in Los Angeles (UTC-7), 18:22 UTC.
    for (const offset of [600, -420, 330]) {
      expect(read(clinicDay(at('11:22', offset), offset), offset)).toEqual({
        arrived: '11:30',
        later: '13:00',
        earlier: '09:45',
      });
    }
  });

  it('before opening: the later one at opening time, nobody seen yet, never a visit before midnight', () => {
    expect(read(clinicDay(at('03:00'), 0), 0)).toEqual({ arrived: '03:15', later: '08:00', earlier: undefined });
    expect(read(clinicDay(at('00:02'), 0), 0)).toEqual({ arrived: '00:15', later: '08:00', earlier: undefined });
    // Not the evening before: 00:02 in UTC+10 is 14:02 UTC of the day before.
    const day = clinicDay(at('00:02', 600), 600);
    expect(day.arrived!.start.getTime()).toBeGreaterThan(at('00:00', 600).getTime());
    // The first visit of the day fits only once an hour and a half has passed since opening.
    expect(read(clinicDay(at('09:29'), 0), 0).earlier).toBeUndefined();
    expect(read(clinicDay(at('09:30'), 0), 0).earlier).toBe('08:00');
  });

  it('near closing time: no later visit; after it, the last one of the day was seen', () => {
    expect(read(clinicDay(at('16:00'), 0), 0)).toEqual({ arrived: '16:15', later: '17:30', earlier: '14:30' });
    expect(read(clinicDay(at('16:01'), 0), 0).later).toBeUndefined();
    expect(read(clinicDay(at('20:00'), 0), 0)).toEqual({ arrived: '20:15', later: undefined, earlier: '17:30' });
  });

  it("just before midnight: the waiting patient's appointment is still today's", () => {
    expect(read(clinicDay(at('23:58'), 0), 0).arrived).toBe('23:30');
    expect(read(clinicDay(at('23:20'), 0), 0).arrived).toBe('23:30');
    expect(read(clinicDay(at('23:40', -300), -300), -300).arrived).toBe('23:30');
  });

  it('at every minute of the day, on any clock: on that day, in hours but the waiting one, apart', () => {
    for (const offset of [0, -300, 330, 840]) {
      const midnight = at('00:00', offset).getTime();
      for (let minute = 0; minute < 24 * 60; minute++) {
        const now = new Date(midnight + minute * MINUTE);
        const day = clinicDay(now, offset);
        const context = `${clock(now, offset)} at UTC${offset >= 0 ? '+' : ''}${offset / 60}`;
        const inDay = (time: Date) => time.getTime() >= midnight && time.getTime() <= midnight + 24 * 60 * MINUTE;
        const minuteOf = (time: Date) => (time.getTime() - midnight) / MINUTE;
        expect(day.arrived, context).toBeDefined();
        for (const slot of Object.values(day)) {
          expect(inDay(slot.start) && inDay(slot.end), context).toBe(true);
          expect(minuteOf(slot.start) % 15, context).toBe(0);
        }
        if (day.earlier) {
          expect(minuteOf(day.earlier.start), context).toBeGreaterThanOrEqual(CLINIC_HOURS.opens);
          expect(day.earlier.end.getTime(), context).toBeLessThanOrEqual(now.getTime());
          expect(day.earlier.end.getTime(), context).toBeLessThanOrEqual(day.arrived!.start.getTime());
        }
        if (day.later) {
          expect(minuteOf(day.later.start), context).toBeGreaterThanOrEqual(CLINIC_HOURS.opens);
          expect(minuteOf(day.later.end), context).toBeLessThanOrEqual(CLINIC_HOURS.closes);
          expect(day.later.start.getTime(), context).toBeGreaterThan(now.getTime());
          expect(day.later.start.getTime(), context).toBeGreaterThanOrEqual(day.arrived!.end.getTime());
        }
        // Waiting at most a little over half an hour before the appointment (or late, at 23:30+).
        if (minute <= 23 * 60) {
          expect(day.arrived!.start.getTime() - now.getTime(), context).toBeGreaterThanOrEqual(5 * MINUTE);
          expect(day.arrived!.start.getTime() - now.getTime(), context).toBeLessThan(20 * MINUTE);
        }
      }
    }
  });
});

describe('whose visits they are', () => {
  const full = clinicDay(at('11:22'), 0);
  const patients = ['Abbott', 'Dach', 'Daugherty', 'Littel'];

  it("the patient account's first, then the others in order, never the urgent patient", () => {
    const kinds = clinicDayPatients(patients, { first: 'Littel', urgent: 'Abbott', day: full });
    expect([...kinds]).toEqual([
      ['Littel', 'arrived'],
      ['Dach', 'later'],
      ['Daugherty', 'earlier'],
    ]);
  });

  it('a visit the day has no slot for takes no one; a small clinic fills what it can', () => {
    const night = clinicDay(at('03:00'), 0);
    expect([...clinicDayPatients(patients, { first: 'Littel', day: night })]).toEqual([
      ['Littel', 'arrived'],
      ['Abbott', 'later'],
    ]);
    expect([...clinicDayPatients(['Dach'], { day: full })]).toEqual([['Dach', 'arrived']]);
    // The patient account's patient is the urgent one: then not among them either.
    expect([...clinicDayPatients(['Abbott', 'Dach'], { first: 'Abbott', urgent: 'Abbott', day: full })]).toEqual([
      ['Dach', 'arrived'],
    ]);
  });
});
