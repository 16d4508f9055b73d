import { DOSESPOT_SECRET_NAMES, DOSESPOT_STAGING_BASE_URL, type NotConfigured } from './dosespotBotIds';

/** A bot's event.secrets (Medplum's shape: name → ProjectSetting). */
export type BotSecrets = Record<string, { name?: string; valueString?: string } | undefined>;

export interface DoseSpotSettings {
  clinicId: string;
  clinicKey: string;
  subscriptionKey: string;
  /** DoseSpot's site, ending in '/': https://my.staging.dosespot.com/ or https://my.dosespot.com/. */
  baseUrl: string;
}

/** The DoseSpot settings from the project's secrets, or which of them are missing. */
export function readDoseSpotSettings(secrets: BotSecrets | undefined): DoseSpotSettings | NotConfigured {
  const value = (name: string) => secrets?.[name]?.valueString?.trim() ?? '';
  const settings = {
    clinicId: value(DOSESPOT_SECRET_NAMES.clinicId),
    clinicKey: value(DOSESPOT_SECRET_NAMES.clinicKey),
    subscriptionKey: value(DOSESPOT_SECRET_NAMES.subscriptionKey),
  };
  const missing = (Object.keys(settings) as (keyof typeof settings)[])
    .filter((key) => !settings[key])
    .map((key) => DOSESPOT_SECRET_NAMES[key]);
  if (missing.length > 0) return { configured: false, missing };
  let baseUrl = value(DOSESPOT_SECRET_NAMES.baseUrl) || DOSESPOT_STAGING_BASE_URL;
  if (!baseUrl.endsWith('/')) baseUrl += '/';
  return { ...settings, baseUrl };
}

export function isNotConfigured(value: DoseSpotSettings | NotConfigured): value is NotConfigured {
  return (value as NotConfigured).configured === false;
}

/** The RESTful API v2 root under the DoseSpot site. */
export function apiRoot(settings: DoseSpotSettings): string {
  return `${settings.baseUrl}webapi/v2/`;
}
