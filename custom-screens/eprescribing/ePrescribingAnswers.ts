import {
  DOSESPOT_BOT_SYSTEM,
  DOSESPOT_IFRAME_BOT,
  DOSESPOT_NOTIFICATION_COUNTS_BOT,
  DOSESPOT_PATIENT_SYNC_BOT,
  DOSESPOT_SECRET_NAMES,
} from '../../config/bots/dosespot/dosespotBotIds';

/** The bots the app calls, by identifier (app-spec §7 'E-prescribing bots'). */
export const patientSyncBot = { system: DOSESPOT_BOT_SYSTEM, value: DOSESPOT_PATIENT_SYNC_BOT };
export const iframeBot = { system: DOSESPOT_BOT_SYSTEM, value: DOSESPOT_IFRAME_BOT };
export const notificationCountsBot = { system: DOSESPOT_BOT_SYSTEM, value: DOSESPOT_NOTIFICATION_COUNTS_BOT };

/** The notification poll period (app-spec §9). */
export const NOTIFICATION_POLL_MS = 10_000;

/** The four counts summed into the bell's badge (app-spec §3). */
export const COUNT_FIELDS = [
  'PendingPrescriptionsCount',
  'PendingRxChangeCount',
  'RefillRequestsCount',
  'TransactionErrorsCount',
] as const;

/** The secrets a project sets for DoseSpot, all of them (the base URL is optional: staging by default). */
export const ALL_SECRET_NAMES = Object.values(DOSESPOT_SECRET_NAMES);

/** The bots answer `{ configured: false, missing }` when the project has not set its DoseSpot secrets. */
export function missingSecretsOf(answer: unknown): string[] | undefined {
  const value = answer as { configured?: unknown; missing?: unknown } | null | undefined;
  if (value?.configured !== false) return undefined;
  return Array.isArray(value.missing) ? value.missing.filter((name): name is string => typeof name === 'string') : [];
}

/** The bell's number: the four counts summed; a count that is missing or not a number adds nothing. */
export function sumNotificationCounts(answer: unknown): number {
  const value = (answer ?? {}) as Record<string, unknown>;
  return COUNT_FIELDS.reduce((sum, field) => {
    const count = value[field];
    return sum + (typeof count === 'number' && Number.isFinite(count) && count > 0 ? count : 0);
  }, 0);
}

/** The frame's address from the iframe bot's answer; only http(s) addresses are framed. */
export function iframeUrlOf(answer: unknown): string | undefined {
  const url = (answer as { url?: unknown } | null | undefined)?.url;
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : undefined;
  } catch {
    return undefined;
  }
}
