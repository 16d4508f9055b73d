import type { RefObject } from 'react';
import { AppBar, Box, IconButton, Toolbar, Tooltip, Typography } from '@mui/material';
import LocalHospitalIcon from '@mui/icons-material/LocalHospital';
import type { Reference } from '@medplum/fhirtypes';
import { GlobalSearch } from './GlobalSearch';
import { NotificationIcons } from './NotificationIcons';
import { UserMenu } from './UserMenu';
import { HEADER_HEIGHT } from './themes';
import { NAVBAR_ID } from './ShellNavigation';

interface HeaderProps {
  navbarOpen: boolean;
  onToggleNavbar: () => void;
  menuButtonRef: RefObject<HTMLButtonElement | null>;
  profile: Reference | undefined;
  ePrescribing: boolean;
}

/** The 60 px header: logo button (toggles the navbar), global search, notifications, user menu. */
export function Header({ navbarOpen, onToggleNavbar, menuButtonRef, profile, ePrescribing }: HeaderProps) {
  return (
    <AppBar
      position="static"
      color="default"
      elevation={0}
      sx={{ height: HEADER_HEIGHT, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
    >
      <Toolbar
        // Tighter spacing below md: at 390 px the wide spacing pushed the user menu 5 px off-screen,
        // so the whole page scrolled sideways.
        sx={{
          minHeight: `${HEADER_HEIGHT}px !important`,
          height: HEADER_HEIGHT,
          gap: { xs: 1, md: 1.5 },
          px: { xs: 1, md: 1.5 },
        }}
      >
        <Tooltip title={navbarOpen ? 'Hide navigation' : 'Show navigation'}>
          <IconButton
            ref={menuButtonRef}
            onClick={onToggleNavbar}
            // The logo's title is part of the name, so the name includes it (WCAG 2.5.3 label in name).
            aria-label={navbarOpen ? 'Hearth EMR: hide navigation' : 'Hearth EMR: show navigation'}
            aria-expanded={navbarOpen}
            aria-controls={NAVBAR_ID}
            color="primary"
          >
            <LocalHospitalIcon titleAccess="Hearth EMR" />
          </IconButton>
        </Tooltip>
        <Typography variant="h6" component="span" sx={{ display: { xs: 'none', md: 'block' }, fontWeight: 600 }}>
          Hearth EMR
        </Typography>
        <GlobalSearch />
        <Box sx={{ flexGrow: 1 }} />
        <NotificationIcons profile={profile} ePrescribing={ePrescribing} />
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
}
