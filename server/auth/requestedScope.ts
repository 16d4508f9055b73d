import type { ClientApplication } from '@medplum/fhirtypes';

/** What a plain sign-in is granted when neither the request nor its client names scopes. */
export const plainSignInScope = 'openid profile';

/**
 * The scopes a sign-in asks for: the request's own, else its ClientApplication's `defaultScope`
 * (Medplum's meaning: used when the authorization or token request names none — an app registered
 * for one job need not repeat it), else a plain OpenID Connect sign-in. A blank `scope` is no scope.
 * The person still confirms SMART scopes, and their access policy still bounds every call.
 */
export function requestedScope(scope: string | undefined, client: ClientApplication | undefined): string {
  if (scope !== undefined && scope.trim() !== '') return scope;
  const defaults = (client?.defaultScope ?? []).map((s) => s.trim()).filter((s) => s !== '');
  return defaults.length > 0 ? defaults.join(' ') : plainSignInScope;
}
