import { defaultClientId } from '../auth/authEnvironment';

/**
 * The partition of `/keyvalue/v1` values a login reads and writes: the signed-in user's values as
 * seen by the application the login was issued to. Each ClientApplication gets its own space for
 * the same user, so a third-party app (whatever its scopes) never reads or overwrites what the web
 * app or another app stored (drafts, preferences).
 *
 * The Hearth web app (logins that name no ClientApplication: `defaultClientId`) and a
 * ClientApplication signed in as itself (client credentials) keep the bare owner reference: that is
 * how every value was stored before partitions, so their values stay where they were without a
 * migration. An app's space adds its client reference after `|`, which no FHIR id or reference
 * contains, so no app's partition can name the web app's or another app's.
 */
export function keyValuePartition(user: string, clientId: string): string {
  const client = `ClientApplication/${clientId}`;
  if (clientId === defaultClientId || user === client) return user;
  return `${user}|${client}`;
}
