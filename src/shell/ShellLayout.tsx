import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Box } from '@mui/material';
import { Header } from './Header';
import { ShellNavigation } from './ShellNavigation';
import { ContentErrorBoundary } from './ContentErrorBoundary';
import { FullScreenSpinner } from './FullScreenSpinner';
import { useSession } from './useSession';
import { useNavbarOpen } from './navbarState';
import { useNarrowLayout } from './useNarrowLayout';
import { useNavbarDrawer } from './useNavbarDrawer';
import { menusOf } from './navigationMenus';
import { isEPrescribingEnabled } from './notificationQueries';
import { signInRedirectPath } from './signedOutPaths';
import { HEADER_HEIGHT } from './themes';
import { useToast } from './toasts';
import { useShellSlots } from './shellSlots';
import { portalRouteAccess } from './portalRouteAccess';
import { CareTeamOnlyPage } from './CareTeamOnlyPage';
import { MAIN_CONTENT_ID, SkipToContent } from './SkipToContent';

/**
 * The signed-in frame of every page (app-spec §2.5): header, side navigation and the page, which
 * shows a red alert instead of crashing. Signed-out visitors go to the sign-in screen. The
 * navigation is a remembered, collapsible column on wide windows and a closed-by-default overlay
 * drawer below the `md` breakpoint, where a column would leave the page too little room.
 */
export function ShellLayout({ children }: { children?: ReactNode }) {
  const location = useLocation();
  const session = useSession();
  const [columnOpen, setColumnOpen] = useNavbarOpen();
  const narrow = useNarrowLayout();
  const drawer = useNavbarDrawer(narrow);
  const navbarOpen = narrow ? drawer.open : columnOpen;
  const toast = useToast();
  const { PatientLayout } = useShellSlots();

  useEffect(() => {
    if (session.error) toast.error(session.error);
  }, [session.error, toast]);

  if (!session.signedIn) return <Navigate to={signInRedirectPath(`${location.pathname}${location.search}`)} replace />;
  if (session.loading) return <FullScreenSpinner />;

  const profile = session.profile
    ? { reference: `${session.profile.resourceType}/${session.profile.id}` }
    : session.activeLogin?.profile;

  // A patient signed in to their own records gets the portal, not the staff shell's menus, and
  // the portal's pages only: a care-team screen is not mounted (nor its searches sent) for her.
  const portal = session.profile?.resourceType === 'Patient';
  const content =
    portal && portalRouteAccess(location.pathname, session.profile?.id) === 'care-team' ? (
      <CareTeamOnlyPage />
    ) : (
      children
    );
  if (PatientLayout && portal && profile) {
    return (
      <PatientLayout patient={profile}>
        <ContentErrorBoundary locationKey={`${location.pathname}${location.search}`}>{content}</ContentErrorBoundary>
      </PatientLayout>
    );
  }

  return (
    <Box sx={{ height: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <SkipToContent />
      <Header
        navbarOpen={navbarOpen}
        onToggleNavbar={() => (narrow ? drawer.setOpen(!drawer.open) : setColumnOpen(!columnOpen))}
        menuButtonRef={drawer.menuButtonRef}
        profile={profile}
        ePrescribing={isEPrescribingEnabled(session.membership)}
      />
      <Box sx={{ display: 'flex', flexGrow: 1, minHeight: 0, height: `calc(100vh - ${HEADER_HEIGHT}px)` }}>
        <ShellNavigation
          menus={menusOf(session.config)}
          overlay={narrow}
          open={navbarOpen}
          onClose={() => drawer.setOpen(false)}
        />
        <Box
          component="main"
          id={MAIN_CONTENT_ID}
          tabIndex={-1}
          sx={{ flexGrow: 1, minWidth: 0, overflow: 'auto', '&:focus': { outline: 'none' } }}
        >
          <ContentErrorBoundary locationKey={`${location.pathname}${location.search}`}>{content}</ContentErrorBoundary>
        </Box>
      </Box>
    </Box>
  );
}
