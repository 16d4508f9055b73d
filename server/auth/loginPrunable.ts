import type { ClientApplication, Login } from '@medplum/fhirtypes';
import { loginSessionEnd } from '../realtime/loginSessionEnd';
import { accessTokenExpiryOf } from './accessTokenExpiry';
import { accessTokenLifetimeOf } from './loginService';

/**
 * How long a Login is kept after its session ended. Not needed for access (an ended Login grants
 * nothing): the record is what an administrator reads when looking into a sign-in after the fact
 * (where from, which app, when it was revoked), and a month covers the usual delay before someone
 * notices and reports a suspicious sign-in. It also leaves a wide margin over clock differences
 * between server processes and over how sessions are counted (a refresh, a revocation).
 */
export const loginRetentionMs = 30 * 24 * 60 * 60 * 1000;

/**
 * Whether a Login may be deleted at `now` (ms since 1970): nothing written to it for
 * `retentionMs`, and its session over for that long too — revoked (revocation is its last write),
 * or past both the end of its session (`loginSessionEnd`) and the expiry of the last access token
 * it was granted (a client's `accessTokenLifetime` may outlast a person's session), as recorded on
 * the Login at that grant (accessTokenExpiry.ts).
 *
 * Deleting cannot be undone, so every doubt keeps the Login: a time that cannot be read (where
 * `loginSessionEnd` fails closed for access and ends the session at once, deletion must not
 * follow it), and a ClientApplication named by the Login that cannot be read (deleted: its
 * lifetimes, which the Login's last token was issued with, are unknown).
 */
export function loginPrunable(
  login: Login,
  client: ClientApplication | undefined,
  now: number,
  retentionMs: number = loginRetentionMs,
): boolean {
  const lastWritten = Date.parse(login.meta?.lastUpdated ?? '');
  if (!Number.isFinite(lastWritten) || now - lastWritten <= retentionMs) return false;
  if (login.revoked === true) return true;
  if (login.client?.reference && !client) return false;
  const sessionEnd = loginSessionEnd(login, client);
  // loginSessionEnd answers 0 for a time it cannot read.
  if (!Number.isFinite(sessionEnd) || sessionEnd <= 0) return false;
  // Recorded at the grant; a Login granted before that was recorded counts its client's lifetime now.
  const lastAccessTokenEnd = accessTokenExpiryOf(login) ?? lastWritten + accessTokenLifetimeOf(client) * 1000;
  return now - Math.max(sessionEnd, lastAccessTokenEnd) > retentionMs;
}
