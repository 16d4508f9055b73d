/** MedicationRequest in the chart summary (app-spec §3, §4). */

/** The status choices of the medication modal; one is required. */
export const MEDICATION_REQUEST_STATUSES = [
  'active',
  'stopped',
  'on-hold',
  'cancelled',
  'completed',
  'entered-in-error',
  'draft',
  'unknown',
] as const;

export type MedicationRequestStatus = (typeof MEDICATION_REQUEST_STATUSES)[number];

/** A request written from the summary is an order unless the clinician says otherwise. */
export const DEFAULT_MEDICATION_INTENT = 'order';

/** Orders the patient is (or may soon be) taking: listed first, before stopped and completed ones. */
export const CURRENT_MEDICATION_STATUSES: readonly string[] = ['active', 'on-hold', 'draft'];

/**
 * How many past (not current) medications the summary lists before it folds them behind a "Show N
 * past medications" toggle: a long imported history would push the sidebar's later sections away.
 */
export const PAST_MEDICATIONS_LISTED_UP_TO = 5;
