import type { OperationOutcome } from '@medplum/fhirtypes';
import { tokenExpired, wrongAudience } from '../outcomes/outcomeCatalogue';

/** The payload claims of a JWT access token that the client looks at. */
export interface AccessTokenClaims {
  exp?: number;
  client_id?: string;
  aud?: string | string[];
  [claim: string]: unknown;
}

function base64UrlDecode(text: string): string {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * The claims of a JWT, read without checking its signature: the client cannot check it (the key
 * is the server's) and only needs the expiry and audience to decide when to refresh. Undefined
 * for opaque (non-JWT) tokens.
 */
export function decodeAccessTokenClaims(token: string): AccessTokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(base64UrlDecode(parts[1]));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as AccessTokenClaims)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Milliseconds since the epoch when the token expires, if it says. */
export function tokenExpiresAt(claims: AccessTokenClaims | undefined): number | undefined {
  return typeof claims?.exp === 'number' ? claims.exp * 1000 : undefined;
}

/** The client the token was issued to: `client_id`, else the audience. */
export function tokenClientIds(claims: AccessTokenClaims | undefined): string[] {
  if (typeof claims?.client_id === 'string') return [claims.client_id];
  if (typeof claims?.aud === 'string') return [claims.aud];
  if (Array.isArray(claims?.aud)) return claims.aud.filter((aud): aud is string => typeof aud === 'string');
  return [];
}

export function isTokenExpired(token: string, now: number): boolean {
  const expiresAt = tokenExpiresAt(decodeAccessTokenClaims(token));
  return expiresAt !== undefined && expiresAt <= now;
}

/**
 * Why an access token must not be used (spec §5: not expired, issued to the configured client),
 * or undefined when it may.
 */
export function accessTokenProblem(
  token: string,
  clientId: string | undefined,
  now: number,
): OperationOutcome | undefined {
  const claims = decodeAccessTokenClaims(token);
  if (isTokenExpired(token, now)) return tokenExpired();
  const issuedTo = tokenClientIds(claims);
  if (clientId && issuedTo.length > 0 && !issuedTo.includes(clientId)) return wrongAudience();
  return undefined;
}
