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
