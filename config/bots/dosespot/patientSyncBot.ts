import type { PatientSyncAnswer, NotConfigured } from './dosespotBotIds';
import { DoseSpotApi } from './dosespotApi';
import { doseSpotPatientIdOf, toDoseSpotPatient, withDoseSpotPatientId } from './dosespotPatient';
import { isNotConfigured, readDoseSpotSettings } from './dosespotSettings';
import { clinicianIdOf, patientIdOf, type BotClient, type BotEvent } from './botContext';

/**
 * dosespot-patient-sync-bot: adds the patient to DoseSpot (and records DoseSpot's id on the
 * Patient as https://dosespot.com/patient-id), or updates their demographics when already there.
 */
export async function handler(medplum: BotClient, event: BotEvent): Promise<PatientSyncAnswer | NotConfigured> {
  const settings = readDoseSpotSettings(event.secrets);
  if (isNotConfigured(settings)) return settings;
  const patientId = patientIdOf(event.input);
  if (!patientId) throw new Error('DoseSpot: patientId is required');
  const clinicianId = await clinicianIdOf(medplum, event);
  const patient = await medplum.readResource('Patient', patientId);
  const request = toDoseSpotPatient(patient);
  const api = await DoseSpotApi.signIn(settings, clinicianId);
  const known = doseSpotPatientIdOf(patient);
  if (known !== undefined) {
    await api.updatePatient(known, request);
    return { configured: true, doseSpotPatientId: known };
  }
  const created = await api.addPatient(request);
  await medplum.updateResource(withDoseSpotPatientId(patient, created));
  return { configured: true, doseSpotPatientId: created };
}
