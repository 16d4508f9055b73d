import type { ClientApplication } from '@medplum/fhirtypes';
import { isAllowedRedirectUri } from '../../data-provider/rules';

/**
 * Is `address` one the client registered, with a scheme codes may go to? The scheme is checked again
 * here because clients saved before the rule existed may still hold a `javascript:` address.
 */
export function isRegisteredRedirectUri(client: ClientApplication | undefined, address: string): boolean {
  if (!client) return false;
  const registered = [client.redirectUri, ...(client.redirectUris ?? [])];
  return registered.includes(address) && isAllowedRedirectUri(address);
}

/**
 * RFC 6749 §4.1.3 at the token endpoint: the token request's `redirect_uri` (`given`) against the
 * one the authorization request named (`authorized`, recorded on the Login). When one was named,
 * the token request must name it again, character for character; an app that did not get the code
 * at that address (a code taken from another app's redirect) cannot redeem it elsewhere. A sign-in
 * that recorded none may still name one: it must then be a registered address of the code's client
 * (the authorization step sends codes nowhere else). Undefined when the request may go on.
 */
export function tokenRedirectUriProblem(
  client: ClientApplication | undefined,
  authorized: string | undefined,
  given: string | undefined,
): { error: 'invalid_request' | 'invalid_grant'; description: string } | undefined {
  if (authorized !== undefined) {
    if (given === undefined || given === '')
      return { error: 'invalid_request', description: 'Missing redirect_uri: the authorization request named one' };
    if (given !== authorized)
      return { error: 'invalid_grant', description: 'redirect_uri does not match the authorization request' };
    return undefined;
  }
  if (given !== undefined && given !== '' && client && !isRegisteredRedirectUri(client, given))
    return { error: 'invalid_grant', description: 'redirect_uri does not match the authorization request' };
  return undefined;
}
