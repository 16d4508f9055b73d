import { lazy, Suspense, type ReactNode } from 'react';
import type { Reference } from '@medplum/fhirtypes';
import { CustomRoutes } from 'react-admin';
import { createBrowserRouter, Route, RouterProvider } from 'react-router-dom';
import { createFhirAuthProvider, createFhirDataProvider } from '../data-provider/react-admin';
import { signedOutRoutes } from '../custom-screens/signin';
import { forgetDraftsOnSignOut } from '../custom-screens/visit-note/forgetDraftsOnSignOut';
import { hearthClient } from './hearthClient';
import { resourceRoutes } from './resources/routes';
import {
  NotFoundPage,
  NotificationBridge,
  OfflineNotice,
  FullScreenSpinner,
  RouterErrorPage,
  ShellLayout,
  ShellSlotsContext,
  type ShellSlots,
  ThemedAdmin,
  ToastProvider,
  createAppQueryClient,
  withSignInRedirect,
} from './shell';

const AccountSettingsPage = lazy(() => import('../custom-screens/account/AccountSettingsPage'));
const PatientPortalLayout = lazy(() =>
  import('../custom-screens/chat/portal/PatientPortalLayout').then((m) => ({ default: m.PatientPortalLayout })),
);
const EPrescribingBell = lazy(() =>
  import('../custom-screens/eprescribing/EPrescribingBell').then((m) => ({ default: m.EPrescribingBell })),
);

// What the shell takes from the feature screens: the patient portal and the e-prescribing bell.
const shellSlots: ShellSlots = {
  PatientLayout: (props: { children?: ReactNode; patient: Reference }) => (
    <Suspense fallback={<FullScreenSpinner />}>
      <PatientPortalLayout {...props} />
    </Suspense>
  ),
  EPrescribingBell: () => (
    <Suspense fallback={null}>
      <EPrescribingBell />
    </Suspense>
  ),
};
const AdminProjectPage = lazy(() => import('../custom-screens/admin/AdminProjectPage'));

// Signing out removes the account's unsaved drafts (questionnaire answers, messages) from the browser.
forgetDraftsOnSignOut(hearthClient);

const authProvider = withSignInRedirect(createFhirAuthProvider(hearthClient), () => !!hearthClient.getActiveLogin());
const dataProvider = createFhirDataProvider(hearthClient);
const queryClient = createAppQueryClient();

/** react-admin on real paths: signed-out pages outside the shell, everything else inside it. */
function HearthAdmin() {
  return (
    <ThemedAdmin
      title="Hearth EMR"
      dataProvider={dataProvider}
      authProvider={authProvider}
      queryClient={queryClient}
      layout={ShellLayout}
      loginPage={false}
      catchAll={NotFoundPage}
      notification={NotificationBridge}
      disableTelemetry
    >
      <CustomRoutes noLayout>
        {signedOutRoutes.map(({ path, element }) => (
          <Route key={path} path={path} element={element} />
        ))}
      </CustomRoutes>
      <CustomRoutes>
        <Route path="/security" element={<AccountSettingsPage />} />
        <Route path="/admin/project" element={<AdminProjectPage />} />
        {resourceRoutes}
      </CustomRoutes>
    </ThemedAdmin>
  );
}

// A data router, so a render error outside the pages gets the router's error page.
const router = createBrowserRouter([{ path: '*', element: <HearthAdmin />, errorElement: <RouterErrorPage /> }]);

export function App() {
  return (
    <ToastProvider>
      <ShellSlotsContext.Provider value={shellSlots}>
        <OfflineNotice />
        <RouterProvider router={router} />
      </ShellSlotsContext.Provider>
    </ToastProvider>
  );
}
