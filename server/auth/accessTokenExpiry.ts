import type { Login } from '@medplum/fhirtypes';

/** Where a Login keeps when the last access token granted through it expires. */
export const accessTokenExpiryUrl = 'https://hearth-emr.org/fhir/StructureDefinition/login-access-token-expires';

/**
 * `login` recording that the access token granted now expires at `expiresAtMs`, in place of any
 * earlier grant's: the latest token is the one that lasts longest, as a grant's lifetime comes from
 * its ClientApplication at that moment. Recorded so that later changes to that lifetime do not
 * change when the Login may be deleted (loginPrunable.ts).
 */
export function withAccessTokenExpiry(login: Login, expiresAtMs: number): Login {
  return {
    ...login,
    extension: [
      ...(login.extension ?? []).filter((e) => e.url !== accessTokenExpiryUrl),
      { url: accessTokenExpiryUrl, valueInstant: new Date(expiresAtMs).toISOString() },
    ],
  };
}

/**
 * When the last access token granted through `login` expires (ms since 1970); undefined for a
 * Login granted before this was recorded, or whose record cannot be read.
 */
export function accessTokenExpiryOf(login: Login): number | undefined {
  const recorded = (login.extension ?? []).find((e) => e.url === accessTokenExpiryUrl)?.valueInstant;
  const at = recorded === undefined ? NaN : Date.parse(recorded);
  return Number.isFinite(at) ? at : undefined;
}
