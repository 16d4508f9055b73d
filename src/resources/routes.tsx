import { lazy, Suspense, type ReactElement } from 'react';
import { Route } from 'react-router-dom';
import { CircularProgress } from '@mui/material';

// Each screen is its own chunk (bundle budget: ≤ 100 KB gzip per screen beyond sign-in).
const PatientHomePage = lazy(() => import('../search/PatientHomePage').then((m) => ({ default: m.PatientHomePage })));
const SearchListPage = lazy(() => import('../search/SearchListPage').then((m) => ({ default: m.SearchListPage })));
const ResourcePage = lazy(() => import('./ResourcePage').then((m) => ({ default: m.ResourcePage })));
const ResourceCreatePage = lazy(() => import('./ResourceCreatePage').then((m) => ({ default: m.ResourceCreatePage })));
const ResourceVersionPage = lazy(() =>
  import('./ResourceVersionPage').then((m) => ({ default: m.ResourceVersionPage })),
);
const loadChartPage = () => import('../../custom-screens/chart/ChartPage');
// A page load straight into a chart fetches the chart's chunk while the app boots and the session
// loads, instead of after (the chart budget: interactive within 1 s of navigation).
if (typeof window !== 'undefined' && window.location.pathname.startsWith('/Patient/')) void loadChartPage();
const ChartPage = lazy(() => loadChartPage().then((m) => ({ default: m.ChartPage })));
const EPrescribingPage = lazy(() =>
  import('../../custom-screens/eprescribing').then((m) => ({ default: m.EPrescribingPage })),
);
const PatientChatPage = lazy(() => import('../../custom-screens/chat').then((m) => ({ default: m.PatientChatPage })));
const OnboardingPage = lazy(() =>
  import('../../custom-screens/chart/onboarding/OnboardingPage').then((m) => ({ default: m.OnboardingPage })),
);

const AppointmentBookingPage = lazy(() =>
  import('../../custom-screens/scheduling').then((m) => ({ default: m.AppointmentBookingPage })),
);
const MyTasksPage = lazy(() => import('../../custom-screens/tasks').then((m) => ({ default: m.MyTasksPage })));

function screen(element: ReactElement): ReactElement {
  return <Suspense fallback={<CircularProgress aria-label="Loading..." sx={{ m: 2 }} />}>{element}</Suspense>;
}

/** The signed-in routes of the generic resource console (app-spec §2.2), mounted inside the shell. */
export const resourceRouteList: { path: string; element: ReactElement }[] = [
  { path: '/', element: screen(<PatientHomePage />) },
  { path: '/:resourceType', element: screen(<SearchListPage />) },
  { path: '/:resourceType/new', element: screen(<ResourceCreatePage />) },
  // My tasks (the header's Tasks icon): the signed-in clinician's work list, not the raw /Task console.
  { path: '/tasks', element: screen(<MyTasksPage />) },
  // Onboarding > New Patient (app-spec §2.2): the front desk's new-patient form, landing on the new chart.
  { path: '/onboarding', element: screen(<OnboardingPage />) },
  // Scheduling > New Appointment: the front desk's booking form (the generic editor stays at /Appointment/new).
  { path: '/appointments/new', element: screen(<AppointmentBookingPage />) },
  // E-prescribing and a conversation by one of its messages (app-spec §2.2), outside the chart.
  { path: '/dosespot', element: screen(<EPrescribingPage />) },
  { path: '/communication/:id', element: screen(<PatientChatPage />) },
  { path: '/:resourceType/:id/_history/:versionId', element: screen(<ResourceVersionPage />) },
  { path: '/:resourceType/:id/*', element: screen(<ResourcePage />) },
  // The patient chart (app-spec §2.2): one route, so its frame stays mounted while the tabs below it
  // change; the static 'Patient' segment ranks it above the generic '/:resourceType/:id/*'.
  { path: '/Patient/:patientId/*', element: screen(<ChartPage />) },
];

/** The same routes as react-router `<Route>` elements (for `<CustomRoutes>` or `<Routes>`). */
export const resourceRoutes: ReactElement[] = resourceRouteList.map((route) => (
  <Route key={route.path} path={route.path} element={route.element} />
));
