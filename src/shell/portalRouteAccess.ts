/**
 * The patient portal's home: her messages (PORTAL_HOME in custom-screens/chat/portal, which the
 * shell may not import; the two must stay the same path).
 */
export const PORTAL_HOME_PATH = '/';

/** Whether a patient signed in to the portal is shown a path's screen, or told it is the care team's. */
export type PortalRouteAccess = 'portal' | 'care-team';

// Her pages outside her record: messages (the home, also under its own name) and account settings.
const PORTAL_PAGES = new Set([PORTAL_HOME_PATH, '/messages', '/security']);

const RESOURCE_TYPE = /^[A-Z][A-Za-z]+$/;

function segmentsOf(pathname: string): string[] {
  return pathname.split('/').filter((segment) => segment !== '');
}

/**
 * What a patient signed in as `patientId` may open. Her own record (`/Patient/{her id}` and
 * everything under it: the chart decides which of its tabs she gets) and a record page at
 * `/{Type}/{id}/…`, since references on her record link there and her access policy already keeps
 * other people's records from her. Lists, create forms, other patients' records and the care
 * team's own screens (/tasks, /onboarding, /dosespot, /admin/…) are the care team's: the server
 * refuses her writes, but showing those screens would only lead to raw "Forbidden" errors.
 */
export function portalRouteAccess(pathname: string, patientId: string | undefined): PortalRouteAccess {
  const normalized = `/${segmentsOf(pathname).join('/')}`;
  if (PORTAL_PAGES.has(normalized)) return 'portal';
  const [type, id, ...rest] = segmentsOf(pathname);
  if (!type || !id || !RESOURCE_TYPE.test(type) || id === 'new') return 'care-team';
  if (type === 'Patient') return patientId !== undefined && id === patientId ? 'portal' : 'care-team';
  // A record's own pages only; a path deeper than its tabs or a version is no screen of hers.
  if (rest.length === 0) return 'portal';
  if (rest.length === 1 && ['details', 'history', 'edit', 'json'].includes(rest[0])) return 'portal';
  if (rest.length === 2 && rest[0] === '_history') return 'portal';
  return 'care-team';
}
