import type { ClientApplication, Resource } from '@medplum/fhirtypes';
import { redirectUriProblem } from '../../data-provider/rules';
import type { RepositorySession } from '../fhir/repository';
import { systemAuthor } from '../definitions/loadDefinitions';

/** Where the web app serves the SMART launch check (public/smart-launch-check/). */
export const LAUNCH_CHECK_PATH = 'smart-launch-check/';

/**
 * The demo clinic's SMART app: the launch check the web app serves, registered as a public
 * ClientApplication (PKCE) whose launch URI carries its client id, so the chart's "Apps" menu has
 * a real app to start an EHR launch of. Registered for this server's BASE_URL, and registered again
 * when that changed since (a new port); not at all when BASE_URL is plain http to another machine,
 * which no redirect URI may use. Answers whether the app is registered.
 */
export async function seedLaunchCheckApp(
  session: RepositorySession,
  options: { projectId: string; baseUrl: string; id: string },
): Promise<boolean> {
  const appUrl = `${options.baseUrl}${LAUNCH_CHECK_PATH}`;
  if (redirectUriProblem(appUrl)) return false;
  const app: ClientApplication = {
    resourceType: 'ClientApplication',
    id: options.id,
    name: 'SMART launch check',
    description: 'Shows what a SMART app receives from the chart: patient, encounter, user and scopes',
    redirectUri: appUrl,
    launchUri: `${appUrl}?client_id=${options.id}`,
  };
  const current = (await session.read('ClientApplication', options.id).catch(() => undefined)) as
    ClientApplication | undefined;
  if (current?.redirectUri === app.redirectUri && current?.launchUri === app.launchUri) return true;
  await session.update({ projectId: options.projectId, author: systemAuthor }, app as Resource);
  return true;
}
