import type { ClientApplication, Login } from '@medplum/fhirtypes';
import { accessTokenExpiryOf } from '../auth/accessTokenExpiry';
import { accessTokenLifetimeOf, remembers, sessionStartOf } from '../auth/loginService';
import { refreshTokenEnd } from '../auth/refreshTokenExpiry';

/**
 * When a login's session ends (ms since 1970), for the connections it holds open (websocket bindings,
 * FHIRcast sockets). Those are authorised by the Login, not by an access token (a binding token
 * names the login; a FHIRcast endpoint is a capability of its subscribing login), so they last as
 * long as the login could still get tokens:
 * - a sign-in that refreshes: until its refresh token would be refused (1 day, 14 days with
 *   "Remember me", from the session's start, sooner with a client's `refreshTokenLifetime`);
 * - a client signing in with its own credentials gets no refresh token: its session is its access
 *   token, which ends `accessTokenLifetime` (1 hour by default) after it was granted.
 * A time that cannot be read ends the session at once: an open connection must fail closed.
 */
export function loginSessionEnd(login: Login, client: ClientApplication | undefined): number {
  const grantedAt = login.meta?.lastUpdated ?? login.authTime;
  let end: number;
  if (login.authMethod === 'client') {
    // As recorded at the grant (a lifetime changed since does not change the token's own `exp`).
    end = accessTokenExpiryOf(login) ?? Date.parse(grantedAt ?? '') + accessTokenLifetimeOf(client) * 1000;
  } else {
    end = refreshTokenEnd({
      authTime: sessionStartOf(login) ?? '',
      issuedAt: grantedAt,
      remembered: remembers(login),
      clientLifetime: client?.refreshTokenLifetime,
    });
    if (!Number.isFinite(Date.parse(sessionStartOf(login) ?? ''))) end = NaN;
  }
  return Number.isNaN(end) ? 0 : end;
}
