import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { AppBar, Box, Button, IconButton, Stack, Toolbar, Tooltip, Typography } from '@mui/material';
import LocalHospitalIcon from '@mui/icons-material/LocalHospital';
import LogoutIcon from '@mui/icons-material/Logout';
import type { Reference } from '@medplum/fhirtypes';
import { formatHumanName } from '../../../data-provider/formatting';
import { MAIN_CONTENT_ID, SIGN_IN_PATH, SkipToContent, useSession, useShellClient } from '../../../src/shell';
import { PatientMessages } from './PatientMessages';

/** The portal's home, where a patient lands after signing in. */
export const PORTAL_HOME = '/';

/** The account settings page (custom-screens/account), the same route the staff user menu opens. */
const ACCOUNT_SETTINGS_PATH = '/security';

/** Shown only from the md breakpoint (900 px) up: below it the short form stands in. */
const WIDE_ONLY = { display: { xs: 'none', md: 'inline-flex' } } as const;
/** Shown only below the md breakpoint, where the header's full words would wrap (768–899 px: tablets). */
const NARROW_ONLY = { display: { xs: 'inline-flex', md: 'none' } } as const;

/**
 * What a patient sees (instead of the staff shell): a plain header with links to their messages
 * and their own record, and sign out. Their messages are the home page; other pages (their record)
 * are the ordinary screens, which their access policy limits to their own data.
 */
export function PatientPortalLayout({ children, patient: profile }: { children?: ReactNode; patient: Reference }) {
  const client = useShellClient();
  const session = useSession();
  const name = session.profile?.resourceType === 'Patient' ? formatHumanName(session.profile.name?.[0]) : '';
  const patient: Reference = { reference: profile.reference, display: name || profile.display };
  const navigate = useNavigate();
  const location = useLocation();
  const patientId = (patient.reference ?? '').replace(/^Patient\//, '');
  const home = location.pathname === PORTAL_HOME || location.pathname === '/messages';
  const signOut = async () => {
    await client.signOut();
    navigate(SIGN_IN_PATH);
  };
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <SkipToContent />
      <AppBar position="static" color="default" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        {/*
          In full words the name, three links and Sign out need about 850 px; below 900 px the settings
          link says "Security" and Sign out is its icon, so a tablet (768–899 px) keeps one line. On a
          phone they wrap onto more lines instead of widening the page.
        */}
        <Toolbar sx={{ gap: 1, flexWrap: 'wrap', py: { xs: 1, sm: 0 } }}>
          <LocalHospitalIcon color="primary" titleAccess="Hearth EMR" />
          <Typography variant="h6" component="span" sx={{ fontWeight: 600, mr: 2 }}>
            Hearth EMR
          </Typography>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            component="nav"
            aria-label="Patient portal"
            sx={{ flexGrow: 1, flexWrap: 'wrap', minWidth: 0 }}
          >
            <Button component={RouterLink} to={PORTAL_HOME} aria-current={home ? 'page' : undefined}>
              My messages
            </Button>
            <Button
              component={RouterLink}
              to={`/Patient/${patientId}`}
              aria-current={location.pathname.startsWith(`/Patient/${patientId}`) ? 'page' : undefined}
            >
              My record
            </Button>
            {/* Patients have no user menu: this is their way to change their password, two-factor sign-in and sessions. */}
            <Button
              component={RouterLink}
              to={ACCOUNT_SETTINGS_PATH}
              aria-current={location.pathname === ACCOUNT_SETTINGS_PATH ? 'page' : undefined}
              // The short word is part of the full name, so saying what is seen ("Security") still finds it.
              aria-label="Password and security"
            >
              <Box component="span" sx={WIDE_ONLY}>
                Password and security
              </Box>
              <Box component="span" sx={NARROW_ONLY}>
                Security
              </Box>
            </Button>
          </Stack>
          <Typography variant="body2" sx={{ display: { xs: 'none', sm: 'block' } }}>
            {patient.display}
          </Typography>
          <Button onClick={() => void signOut()} sx={WIDE_ONLY}>
            Sign out
          </Button>
          <Tooltip title="Sign out">
            <IconButton aria-label="Sign out" color="primary" onClick={() => void signOut()} sx={NARROW_ONLY}>
              <LogoutIcon />
            </IconButton>
          </Tooltip>
        </Toolbar>
      </AppBar>
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        // Focusable from the skip link only: it moves focus here, the Tab key does not stop here.
        tabIndex={-1}
        sx={{ flexGrow: 1, p: 2, maxWidth: 900, width: '100%', mx: 'auto', '&:focus': { outline: 'none' } }}
      >
        {home ? <PatientMessages patient={patient} /> : children}
      </Box>
    </Box>
  );
}
