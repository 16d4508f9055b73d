import { startDoseSpotTestServer } from '../integration/dosespotTestServer';
import { aliceCounts, aliceDoseSpotId, doseSpotClinic, doseSpotPort } from './doseSpotTestClinic';

/**
 * Starts the local DoseSpot test server for the e2e run, on the fixed loopback port the Hearth
 * server lists in BOT_FETCH_ALLOWED_HOSTS and APP_FRAME_ORIGINS (playwright.config.ts).
 */
export default async function doseSpotGlobalSetup(): Promise<() => Promise<void>> {
  const server = await startDoseSpotTestServer({
    ...doseSpotClinic,
    clinicians: { [aliceDoseSpotId]: aliceCounts },
    port: doseSpotPort,
  });
  return async () => {
    if (server.violations.length > 0) console.error(`DoseSpot contract violations:\n${server.violations.join('\n')}`);
    await server.close();
  };
}
