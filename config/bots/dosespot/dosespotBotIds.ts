/**
 * The three DoseSpot bots, by the identifiers Medplum's own DoseSpot integration gives them, so
 * that a Medplum project's bots and apps work here unchanged.
 */
export const DOSESPOT_BOT_SYSTEM = 'https://www.medplum.com/bots';
export const DOSESPOT_PATIENT_SYNC_BOT = 'dosespot-patient-sync-bot';
export const DOSESPOT_IFRAME_BOT = 'dosespot-iframe-bot';
export const DOSESPOT_NOTIFICATION_COUNTS_BOT = 'dosespot-notification-counts-bot';

/** Where a patient's DoseSpot id is written back on the Patient. */
export const DOSESPOT_PATIENT_ID_SYSTEM = 'https://dosespot.com/patient-id';

/** The project secrets the bots read (Project.secret, by name). */
export const DOSESPOT_SECRET_NAMES = {
  clinicId: 'DOSESPOT_CLINIC_ID',
  clinicKey: 'DOSESPOT_CLINIC_KEY',
  subscriptionKey: 'DOSESPOT_SUBSCRIPTION_KEY',
  baseUrl: 'DOSESPOT_BASE_URL',
} as const;

export const DOSESPOT_STAGING_BASE_URL = 'https://my.staging.dosespot.com/';
export const DOSESPOT_PRODUCTION_BASE_URL = 'https://my.dosespot.com/';

/** What a bot answers when the project has not set the DoseSpot secrets (never an error, so the app can say what to set). */
export interface NotConfigured {
  configured: false;
  missing: string[];
}

export interface IframeAnswer {
  configured: true;
  url: string;
}

export interface PatientSyncAnswer {
  configured: true;
  doseSpotPatientId: number;
}

/** DoseSpot's notification counts (GET api/notifications/counts), as the counts bot answers them. */
export interface NotificationCountsAnswer {
  configured: true;
  PendingPrescriptionsCount: number;
  PendingRxChangeCount: number;
  RefillRequestsCount: number;
  TransactionErrorsCount: number;
}

export const DOSESPOT_BOTS = [
  { identifier: DOSESPOT_PATIENT_SYNC_BOT, name: 'DoseSpot patient sync', entry: 'patientSyncBot.ts' },
  { identifier: DOSESPOT_IFRAME_BOT, name: 'DoseSpot iframe', entry: 'iframeBot.ts' },
  {
    identifier: DOSESPOT_NOTIFICATION_COUNTS_BOT,
    name: 'DoseSpot notification counts',
    entry: 'notificationCountsBot.ts',
  },
] as const;
