import { fetchStoredJson, StoredUrlFetchError } from '../net/storedUrlFetch';
import { oauthError } from './loginService';

/** The one answer for every subject token the client's identity provider did not vouch for. */
export const subjectTokenRefused = 'The identity provider did not accept the subject token';

/**
 * Who a ClientApplication's identity provider says a token exchange's subject token belongs to
 * (RFC 8693): its `userInfoUrl`, asked with the token as bearer. A project admin stores that URL
 * and the caller chooses the token, so the request goes under the outbound address rule with a time
 * and size limit (server/net/storedUrlFetch.ts) — no loopback, private or metadata address unless
 * an operator listed it — and every failure (refused address, closed port, timeout, a status other
 * than 200, an answer without `sub`) is the same `invalid_grant`: the answer cannot be used to
 * scan ports. `onRefused` hears the real reason, for the server's log.
 */
export async function subjectTokenClaims(
  userInfoUrl: string,
  subjectToken: string,
  options: { allowedHosts: readonly string[]; onRefused?: (reason: string) => void },
): Promise<{ sub: string; email?: string }> {
  const refuse = (reason: string) => {
    options.onRefused?.(reason);
    return oauthError('invalid_grant', subjectTokenRefused);
  };
  let claims: unknown;
  try {
    claims = await fetchStoredJson(userInfoUrl, {
      allowedHosts: options.allowedHosts,
      headers: { authorization: `Bearer ${subjectToken}` },
    });
  } catch (error) {
    throw refuse(error instanceof StoredUrlFetchError ? error.reason : (error as Error).message);
  }
  const { sub, email } = (claims ?? {}) as { sub?: unknown; email?: unknown };
  if (typeof sub !== 'string' || sub === '') throw refuse('the answer names no subject');
  return { sub, ...(typeof email === 'string' ? { email } : {}) };
}
