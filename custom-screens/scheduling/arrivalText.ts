import { formatDateTime } from '../../data-provider/formatting';

const MINUTE = 60_000;

/** "9:42 AM": a time of today, as the app shows times. */
export function clockTime(iso: string): string {
  return formatDateTime(iso, undefined, { hour: 'numeric', minute: '2-digit' });
}

/** Whole minutes from `since` to `now` (never below 0: a clock a little ahead of the server's is no wait). */
export function minutesSince(since: string, now: Date): number {
  const start = new Date(since).getTime();
  if (Number.isNaN(start)) return 0;
  return Math.max(0, Math.floor((now.getTime() - start) / MINUTE));
}

/** "under a minute", "18 min", "1 h", "1 h 5 min": a wait as people say it. */
export function durationText(minutes: number): string {
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** "arrived 9:42 AM, waiting 18 min"; "arrival time unknown" when there is none to read. */
export function arrivalText(arrival: string | undefined, now: Date): string {
  if (!arrival || Number.isNaN(new Date(arrival).getTime())) return 'arrival time unknown';
  return `arrived ${clockTime(arrival)}, waiting ${durationText(minutesSince(arrival, now))}`;
}
