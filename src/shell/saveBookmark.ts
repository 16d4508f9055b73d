import type { ProjectMembership, UserConfiguration } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { addBookmark } from './navigationMenus';

/**
 * Adds a link to the user's configuration (PUT UserConfiguration, app-spec §7) and reloads the
 * session so the sidebar shows it. A user without a configuration gets one, linked from their
 * membership; that needs the right to update the membership, and otherwise fails with the server's
 * message.
 */
export async function saveBookmark(client: FhirClient, menuTitle: string, name: string, target: string): Promise<void> {
  const config = client.getUserConfiguration();
  const updated = addBookmark(config, menuTitle, name, target);
  if (config?.id) {
    await client.updateResource<UserConfiguration>(updated);
  } else {
    const membership = client.getProjectMembership();
    if (!membership?.id) throw new Error('No project membership to attach the configuration to');
    const created = await client.createResource<UserConfiguration>(updated);
    await client.updateResource<ProjectMembership>({
      ...membership,
      userConfiguration: { reference: `UserConfiguration/${created.id}` },
    });
  }
  await client.refreshProfile();
}
