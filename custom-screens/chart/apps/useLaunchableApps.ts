import { useQuery } from '@tanstack/react-query';
import { canReadResourceType } from '../../../data-provider/access';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { launchableApps, type LaunchableApp } from './launchableApps';

/** How many ClientApplications the chart looks through for launch URIs. */
const APPS_SEARCHED = 100;

/**
 * The SMART apps of the caller's project that have a launch URI. A caller whose access policy
 * does not let them search ClientApplications gets none: the chart then offers no launch, and
 * does not ask (the server would refuse the search on every chart opened).
 */
export function useLaunchableApps() {
  const client = useFhirClient();
  const mayList = client.isSuperAdmin() || canReadResourceType(client.getAccessPolicy(), 'ClientApplication');
  return useQuery<LaunchableApp[], Error>({
    enabled: mayList,
    queryKey: ['hearth-launchable-apps'],
    queryFn: async ({ signal }) =>
      launchableApps(await client.searchResources('ClientApplication', { _count: String(APPS_SEARCHED) }, { signal })),
    retry: false,
    // Apps are registered rarely; opening another chart need not ask again.
    staleTime: 5 * 60_000,
  });
}
