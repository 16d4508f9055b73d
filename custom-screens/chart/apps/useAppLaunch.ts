import { useCallback } from 'react';
import type { SmartAppLaunch } from '@medplum/fhirtypes';
import { appLaunchUrl } from '../../../data-provider/rules';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import type { LaunchableApp } from './launchableApps';

/**
 * Starts an EHR launch (SMART App Launch 2.0): saves a SmartAppLaunch with the chart's patient
 * (and encounter), which the server hands to the app with its token when the app names this
 * launch id, and answers the address to send the browser to.
 */
export function useAppLaunch() {
  const client = useFhirClient();
  return useCallback(
    async (app: LaunchableApp, context: { patientId: string; encounterId?: string }): Promise<string> => {
      const launch = await client.createResource<SmartAppLaunch>({
        resourceType: 'SmartAppLaunch',
        patient: { reference: `Patient/${context.patientId}` },
        ...(context.encounterId ? { encounter: { reference: `Encounter/${context.encounterId}` } } : {}),
      });
      // `iss` is the FHIR base without its trailing slash, as apps append paths to it.
      const iss = client.getFhirBaseUrl().replace(/\/+$/, '');
      return appLaunchUrl(app.launchUri, iss, launch.id as string);
    },
    [client],
  );
}
