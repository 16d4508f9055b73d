import { FhirClient } from '../data-provider/client';
import { isSignedOutPath, signInRedirectPath } from './shell/signedOutPaths';

/** The one FHIR client of the web app: same origin as the page, logins in localStorage. */
export const hearthClient = new FhirClient({
  baseUrl: `${window.location.origin}/`,
  // The session ended (refresh refused): back to the sign-in screen, which returns here afterwards.
  onUnauthenticated: () => {
    const { pathname, search } = window.location;
    if (!isSignedOutPath(pathname)) window.location.replace(signInRedirectPath(`${pathname}${search}`));
  },
});
