import { localZone } from '../../src/datatypes/dateTimeValue';

/** Types a chart tab lists by when they were written (`authoredOn`, config/clinical/chartListSort). */
const AUTHORED_ON_TYPES: ReadonlySet<string> = new Set(['Task', 'MedicationRequest', 'ServiceRequest']);

/** `now` as the form writes a typed dateTime: the wall clock to the second, with the user's offset. */
export function localDateTime(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const wallClock =
    `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}` +
    `T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  return `${wallClock}${localZone(wallClock)}`;
}

/**
 * A record made from its chart tab is written now: without `authoredOn` it would sort below every
 * dated one in the tab it was made from (the server sorts missing dates last), where one just
 * made belongs at the top. The form shows it, to be changed for one written earlier.
 */
export function authoredOnDefault(resourceType: string, now: Date): { authoredOn: string } | undefined {
  return AUTHORED_ON_TYPES.has(resourceType) ? { authoredOn: localDateTime(now) } : undefined;
}
