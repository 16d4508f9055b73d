/**
 * The DoseSpot test server the e2e run starts (tests/e2e/doseSpotGlobalSetup.ts) and what the demo
 * clinic's secrets must say to reach it. Alice's demo membership carries DoseSpot clinician 304015.
 */
const e2ePort = Number(process.env.E2E_PORT ?? 8199);

export const doseSpotPort = Number(process.env.E2E_DOSESPOT_PORT ?? e2ePort + 1000);
export const doseSpotOrigin = `http://127.0.0.1:${doseSpotPort}`;
export const doseSpotClinic = {
  clinicId: '1234',
  clinicKey: 'E2eClinicKey-8d2f41a7',
  subscriptionKey: 'e2e-subscription-key',
};
export const aliceDoseSpotId = '304015';
export const aliceCounts = {
  PendingPrescriptionsCount: 2,
  PendingRxChangeCount: 1,
  RefillRequestsCount: 4,
  TransactionErrorsCount: 3,
};
