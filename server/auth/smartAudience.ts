/**
 * The `aud` of an authorization request (SMART App Launch): the FHIR base URL the app means to use
 * its token at. An app that names another server is refused, so a token is never issued for a
 * resource server the app did not ask for (a malicious server cannot relay the request here).
 * Without `aud`: allowed for plain OpenID Connect sign-ins (Medplum's client sends none), refused
 * when SMART resource or launch scopes are asked for, as SMART requires it there.
 */
export function audienceProblem(aud: unknown, scope: unknown, fhirBase: string): string | undefined {
  if (aud === undefined) {
    return asksSmartScopes(scope)
      ? `Missing aud: SMART apps must name this server's FHIR base (${fhirBase})`
      : undefined;
  }
  if (typeof aud !== 'string' || aud.replace(/\/$/, '') !== fhirBase) {
    return `aud must be this server's FHIR base (${fhirBase})`;
  }
  return undefined;
}

function asksSmartScopes(scope: unknown): boolean {
  if (typeof scope !== 'string') return false;
  return scope
    .split(/\s+/)
    .some((s) => /^(patient|user|system)\//.test(s) || s === 'launch' || s.startsWith('launch/'));
}
