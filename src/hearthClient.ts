import { FhirClient } from '../data-provider/client';

/** The one FHIR client of the web app: same origin as the page, logins in localStorage. */
export const hearthClient = new FhirClient({
  baseUrl: `${window.location.origin}/`,
  onUnauthenticated: () => {
    if (!window.location.hash.startsWith('#/login')) window.location.hash = '#/login';
  },
});
