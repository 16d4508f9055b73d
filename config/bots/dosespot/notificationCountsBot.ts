import type { NotConfigured, NotificationCountsAnswer } from './dosespotBotIds';
import { DoseSpotApi } from './dosespotApi';
import { isNotConfigured, readDoseSpotSettings } from './dosespotSettings';
import { clinicianIdOf, type BotClient, type BotEvent } from './botContext';

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

/** dosespot-notification-counts-bot: the calling clinician's pending DoseSpot work (the bell's badge). */
export async function handler(medplum: BotClient, event: BotEvent): Promise<NotificationCountsAnswer | NotConfigured> {
  const settings = readDoseSpotSettings(event.secrets);
  if (isNotConfigured(settings)) return settings;
  const clinicianId = await clinicianIdOf(medplum, event);
  const api = await DoseSpotApi.signIn(settings, clinicianId);
  const counts = await api.notificationCounts();
  return {
    configured: true,
    PendingPrescriptionsCount: count(counts.PendingPrescriptionsCount),
    PendingRxChangeCount: count(counts.PendingRxChangeCount),
    RefillRequestsCount: count(counts.RefillRequestsCount),
    TransactionErrorsCount: count(counts.TransactionErrorsCount),
  };
}
