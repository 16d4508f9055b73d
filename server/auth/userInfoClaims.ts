import type { HumanName } from '@medplum/fhirtypes';

/** What `/oauth2/userinfo` knows of the caller; each claim is answered only under its scope. */
export interface UserInfoSource {
  /** The User's id (a ClientApplication's, for a client signed in as itself): the token's `sub`. */
  subject: string;
  /** `Practitioner/{id}`, `Patient/{id}`…: the FHIR resource the person acts as. */
  profileReference?: string;
  /** The profile resource's first name. */
  name?: HumanName;
  /** Set for a person (not for a client acting as itself). */
  email?: string;
  emailVerified?: boolean;
}

/** The token's scopes, as `/oauth2/userinfo` reads them. */
export function scopeSet(scope: string): ReadonlySet<string> {
  return new Set(scope.split(/\s+/).filter((word) => word !== ''));
}

/**
 * The claims of `/oauth2/userinfo` for a token with `scopes` (OpenID Connect Core §5.3.2, §5.4):
 * `sub` always; `name`, `given_name`, `family_name` and `profile` (the FHIR profile, as SMART v1
 * apps asking `openid profile` read it) with `profile`; `email` and `email_verified` with `email`;
 * `fhirUser` with `fhirUser` (SMART App Launch 2.0). The caller checks `openid` first.
 */
export function userInfoClaims(scopes: ReadonlySet<string>, source: UserInfoSource): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: source.subject };
  if (scopes.has('profile')) {
    if (source.profileReference) claims.profile = source.profileReference;
    const name = source.name;
    const full = name ? [...(name.given ?? []), name.family].filter(Boolean).join(' ') : '';
    if (full) claims.name = full;
    if (name?.given?.[0]) claims.given_name = name.given[0];
    if (name?.family) claims.family_name = name.family;
  }
  if (scopes.has('email') && source.email) {
    claims.email = source.email;
    claims.email_verified = source.emailVerified === true;
  }
  if (scopes.has('fhirUser') && source.profileReference) claims.fhirUser = source.profileReference;
  return claims;
}
