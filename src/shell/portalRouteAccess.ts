import { CHART_TABS } from '../../config/clinical/chartTabs';

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

// The chart's care-team tabs (its Edit, Encounter, Tasks, Communications, DoseSpot): the chart hides
// them from her, and their addresses must not open them either (the Tasks list showed staff tasks).
const STAFF_TAB_PATHS = new Set(CHART_TABS.filter((tab) => tab.staffOnly).map((tab) => tab.path));

// A record's screens that only write: her access policy lets her change none of her records.
const WRITE_SCREENS = new Set(['edit', 'json']);

function segmentsOf(pathname: string): string[] {
  return pathname.split('/').filter((segment) => segment !== '');
}

/**
 * What a patient signed in as `patientId` may open. Her own record (`/Patient/{her id}` and
 * everything under it but the care team's tabs and edit screens) and a record page at
 * `/{Type}/{id}` (details, history, versions), since references on her record link there and her
 * access policy already keeps other people's records from her. Lists, create forms, other patients' records and the care
 * team's own screens (/tasks, /onboarding, /dosespot, /admin/…) are the care team's: the server
 * refuses her writes, but showing those screens would only lead to raw "Forbidden" errors.
 */
export function portalRouteAccess(pathname: string, patientId: string | undefined): PortalRouteAccess {
  const normalized = `/${segmentsOf(pathname).join('/')}`;
  if (PORTAL_PAGES.has(normalized)) return 'portal';
  const [type, id, ...rest] = segmentsOf(pathname);
  if (!type || !id || !RESOURCE_TYPE.test(type) || id === 'new') return 'care-team';
  if (type === 'Patient') {
    if (patientId === undefined || id !== patientId) return 'care-team';
    if (rest.length > 0 && STAFF_TAB_PATHS.has(rest[0])) return 'care-team';
    return rest.length > 0 && WRITE_SCREENS.has(rest[rest.length - 1]) ? 'care-team' : 'portal';
  }
  // A record's own pages only; a path deeper than its tabs or a version is no screen of hers.
  if (rest.length === 0) return 'portal';
  if (rest.length === 1 && ['details', 'history'].includes(rest[0])) return 'portal';
  if (rest.length === 2 && rest[0] === '_history') return 'portal';
  return 'care-team';
}
