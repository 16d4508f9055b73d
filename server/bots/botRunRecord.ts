import type { Bot } from '@medplum/fhirtypes';

/** What decides a run's record: did it succeed, and did the bot write anything to its log. */
export interface RunForRecord {
  ok: boolean;
  logs: readonly string[];
}

/**
 * Whether a run is recorded as an AuditEvent, by the Bot's `auditEventTrigger` (Medplum's field):
 * `always` (the default, also for a value this server does not know), `on-error` (failed runs
 * only), `on-output` (failed runs and runs that logged something) or `never`. A bot polled every
 * few seconds for a badge (the DoseSpot counts bot) would otherwise write thousands of records a
 * day per user. The bot's own writes keep their versions and authors whatever it says.
 */
export function recordsRun(trigger: Bot['auditEventTrigger'], run: RunForRecord): boolean {
  switch (trigger) {
    case 'never':
      return false;
    case 'on-error':
      return !run.ok;
    case 'on-output':
      return !run.ok || run.logs.length > 0;
    default:
      return true;
  }
}
