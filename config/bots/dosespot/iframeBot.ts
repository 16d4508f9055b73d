import type { IframeAnswer, NotConfigured } from './dosespotBotIds';
import { doseSpotPatientIdOf } from './dosespotPatient';
import { isNotConfigured, readDoseSpotSettings } from './dosespotSettings';
import { ssoUrl } from './dosespotSso';
import { clinicianIdOf, patientIdOf, type BotClient, type BotEvent } from './botContext';

/**
 * dosespot-iframe-bot: the single sign-on address that opens DoseSpot for the calling clinician,
 * on the patient (synced first by the patient sync bot) or, without a patient, on their
 * notifications.
 */
export async function handler(medplum: BotClient, event: BotEvent): Promise<IframeAnswer | NotConfigured> {
  const settings = readDoseSpotSettings(event.secrets);
  if (isNotConfigured(settings)) return settings;
  const clinicianId = await clinicianIdOf(medplum, event);
  const patientId = patientIdOf(event.input);
  let doseSpotPatientId: number | undefined;
  if (patientId) {
    doseSpotPatientId = doseSpotPatientIdOf(await medplum.readResource('Patient', patientId));
    if (doseSpotPatientId === undefined) {
      throw new Error(`DoseSpot: Patient/${patientId} is not in DoseSpot yet (run the patient sync bot first)`);
    }
  }
  const url = await ssoUrl({
    baseUrl: settings.baseUrl,
    clinicId: settings.clinicId,
    clinicKey: settings.clinicKey,
    clinicianId,
    doseSpotPatientId,
  });
  return { configured: true, url };
}
