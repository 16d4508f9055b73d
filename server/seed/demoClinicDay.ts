/**
 * The demo clinic's day of the first start: Alice's follow-up visits of that day, placed around the
 * moment the seed runs, so that Scheduling's "Here today" has a patient waiting, the desk has a
 * later one to check in, and an earlier one has been seen. Pure: `now` and the clock's offset decide.
 */

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;
const QUARTER = 15;

/** The clinic's opening hours, in minutes of the local day: 8:00 to 18:00. */
export const CLINIC_HOURS = { opens: 8 * 60, closes: 18 * 60 } as const;
/** A follow-up visit books half an hour (as the seed's other follow-ups do). */
export const FOLLOW_UP_MINUTES = 30;
/** The waiting patient's appointment starts at the first quarter hour at least this long after they arrived. */
const EARLY_BY = 5;
/** The later patient's appointment starts at the first quarter hour at least this long after the seed. */
const LATER_BY = 90;
/** The earlier patient's appointment started at the last quarter hour at least this long before the seed. */
const EARLIER_BY = 90;

export type ClinicDayVisitKind = 'arrived' | 'later' | 'earlier';

/** The status each of the day's visits has when the seed runs. */
export const CLINIC_DAY_STATUS = { arrived: 'arrived', later: 'booked', earlier: 'fulfilled' } as const;

export interface ClinicDaySlot {
  start: Date;
  end: Date;
}

export type ClinicDay = Partial<Record<ClinicDayVisitKind, ClinicDaySlot>>;

const ceilQuarter = (minutes: number) => Math.ceil(minutes / QUARTER) * QUARTER;
const floorQuarter = (minutes: number) => Math.floor(minutes / QUARTER) * QUARTER;

/**
 * The visits of `now`'s local day, `utcOffsetMinutes` being the clock's offset east of UTC
 * (`-now.getTimezoneOffset()` on the server's clock), each on a quarter hour:
 * - arrived: the patient came in just now, a little before their appointment. The arrival the
 *   screen shows is the time the check-in was written (the Appointment's history), which is the
 *   seed's own moment and cannot be set: so this one follows the seed time even outside opening
 *   hours (a fresh start at night still has someone waiting), kept on the same day (a start at
 *   23:58 has its appointment at 23:30, the patient late);
 * - later: booked an hour and a half on, from opening time at the earliest; none when it would end
 *   after closing time;
 * - earlier: seen an hour and a half before, at most the last visit before closing time; none
 *   before opening time (a seed at 03:00 has no "earlier today", and never one before midnight).
 */
export function clinicDay(now: Date, utcOffsetMinutes: number): ClinicDay {
  const local = now.getTime() + utcOffsetMinutes * MINUTE;
  const localMidnight = Math.floor(local / (DAY_MINUTES * MINUTE)) * DAY_MINUTES * MINUTE;
  // The local day's midnight as an instant: times of the day are minutes from it.
  const midnight = localMidnight - utcOffsetMinutes * MINUTE;
  const minute = (local - localMidnight) / MINUTE;
  const slot = (start: number): ClinicDaySlot => ({
    start: new Date(midnight + start * MINUTE),
    end: new Date(midnight + (start + FOLLOW_UP_MINUTES) * MINUTE),
  });
  const day: ClinicDay = {
    arrived: slot(Math.min(ceilQuarter(minute + EARLY_BY), DAY_MINUTES - FOLLOW_UP_MINUTES)),
  };
  const later = Math.max(ceilQuarter(minute + LATER_BY), CLINIC_HOURS.opens);
  if (later + FOLLOW_UP_MINUTES <= CLINIC_HOURS.closes) day.later = slot(later);
  const earlier = Math.min(floorQuarter(minute - EARLIER_BY), CLINIC_HOURS.closes - FOLLOW_UP_MINUTES);
  if (earlier >= CLINIC_HOURS.opens) day.earlier = slot(earlier);
  return day;
}

/**
 * Whose visits they are, by record: first the patient account's own (the patient who signs in to
 * the portal sees the visit the clinic sees), then the others in the seed's order; never the
 * urgent patient, whose "should I come in sooner?" waits for Alice's answer. A kind without a slot
 * today takes no one: that patient's follow-up stays on its later day.
 */
export function clinicDayPatients<T>(
  patients: readonly T[],
  options: { first?: T; urgent?: T; day: ClinicDay },
): Map<T, ClinicDayVisitKind> {
  const order = [
    ...(options.first !== undefined && options.first !== options.urgent ? [options.first] : []),
    ...patients.filter((patient) => patient !== options.first && patient !== options.urgent),
  ];
  const kinds = (['arrived', 'later', 'earlier'] as const).filter((kind) => options.day[kind]);
  return new Map(kinds.slice(0, order.length).map((kind, index) => [order[index], kind]));
}
