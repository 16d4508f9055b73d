import { useEffect, useState } from 'react';
import { visuallyHidden } from '@mui/utils';
import { useNavigate } from 'react-router-dom';
import {
  Avatar,
  Box,
  Divider,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import LightModeIcon from '@mui/icons-material/LightMode';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import BrightnessAutoIcon from '@mui/icons-material/BrightnessAuto';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SettingsIcon from '@mui/icons-material/Settings';
import SecurityIcon from '@mui/icons-material/Security';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import LogoutIcon from '@mui/icons-material/Logout';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import type { LoginState } from '../../data-provider/client';
import { getDisplayString } from '../../data-provider/formatting';
import { choosePhoto, imageSource } from '../../data-provider/rules';
import { useShellClient } from './shellClient';
import { knownProfileName, rememberProfileName } from './knownProfileNames';
import { useSession } from './useSession';
import { useColorSchemeChoice, type ColorSchemeChoice } from './colorScheme';
import { useToast } from './toasts';
import { APP_VERSION } from './appVersion';
import { SIGN_IN_PATH } from './signedOutPaths';

function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join('') || '?'
  );
}

/** The same account signed in twice is one entry: compare by profile and project. */
function sameLogin(a: LoginState | undefined, b: LoginState): boolean {
  return (
    a !== undefined &&
    (a.accessToken === b.accessToken ||
      (a.profile?.reference !== undefined &&
        a.profile.reference === b.profile?.reference &&
        a.project?.reference === b.project?.reference))
  );
}

function loginLabel(login: LoginState): string {
  const profile =
    login.profile?.display ?? knownProfileName(login.profile?.reference) ?? login.profile?.reference ?? 'Account';
  const project = login.project?.display ?? login.project?.reference;
  return project ? `${profile} — ${project}` : profile;
}

/** The header's user menu (app-spec §2.5). */
export function UserMenu() {
  const client = useShellClient();
  const navigate = useNavigate();
  const toast = useToast();
  const { profile, project, logins, activeLogin } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [scheme, setScheme] = useColorSchemeChoice();
  const name = profile ? getDisplayString(profile) : '';
  const photo = imageSource(choosePhoto(profile), (address) => client.fileAddress(address));
  const others = logins.filter((login) => !sameLogin(activeLogin, login));
  useEffect(() => {
    if (profile?.id && name) rememberProfileName(`${profile.resourceType}/${profile.id}`, name);
  }, [profile, name]);
  const close = () => setAnchor(null);
  const go = (path: string) => {
    close();
    navigate(path);
  };

  const switchTo = async (login: LoginState) => {
    close();
    try {
      await client.setActiveLogin(login);
      window.location.reload();
    } catch (error) {
      toast.error(error);
    }
  };

  const signOut = async () => {
    close();
    await client.signOut();
    navigate(SIGN_IN_PATH);
  };

  return (
    <>
      <IconButton
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'user-menu' : undefined}
      >
        <Avatar src={photo} alt="" sx={{ width: 36, height: 36, bgcolor: '#1565c0', color: '#fff', fontSize: 15 }}>
          {initials(name)}
        </Avatar>
        {/* Named by its content, so the visible initials are part of the name (WCAG 2.5.3 label in name). */}
        <Box component="span" sx={visuallyHidden}>
          User menu: {name}
        </Box>
      </IconButton>
      <Menu
        id="user-menu"
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 300 } } }}
      >
        <Box sx={{ px: 2, py: 1.5, display: 'flex', gap: 1.5, alignItems: 'center' }}>
          <Avatar src={photo} alt="" sx={{ bgcolor: '#1565c0', color: '#fff' }}>
            {initials(name)}
          </Avatar>
          <Box>
            <Typography variant="subtitle1" component="p">
              {name}
            </Typography>
            <Typography variant="body2" color="text.secondary" data-testid="project-name">
              {project?.name}
            </Typography>
          </Box>
        </Box>
        <Divider />
        {others.map((login) => (
          <MenuItem key={login.accessToken} onClick={() => void switchTo(login)}>
            <ListItemIcon>
              <SwapHorizIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={loginLabel(login)} secondary="Switch to this account" />
          </MenuItem>
        ))}
        {others.length > 0 && <Divider />}
        <Box sx={{ px: 2, py: 1 }}>
          <Typography variant="caption" color="text.secondary" id="color-scheme-label" component="p">
            Colour scheme
          </Typography>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={scheme}
            aria-labelledby="color-scheme-label"
            onChange={(_event, value: ColorSchemeChoice | null) => {
              if (!value) return;
              setScheme(value);
              // The whole app repaints in the new scheme; the menu closes so the page shows it.
              close();
            }}
          >
            <ToggleButton value="light" aria-label="Light">
              <LightModeIcon fontSize="small" sx={{ mr: 0.5 }} /> Light
            </ToggleButton>
            <ToggleButton value="dark" aria-label="Dark">
              <DarkModeIcon fontSize="small" sx={{ mr: 0.5 }} /> Dark
            </ToggleButton>
            <ToggleButton value="auto" aria-label="Auto">
              <BrightnessAutoIcon fontSize="small" sx={{ mr: 0.5 }} /> Auto
            </ToggleButton>
          </ToggleButtonGroup>
        </Box>
        <Divider />
        <MenuItem onClick={() => go(SIGN_IN_PATH)}>
          <ListItemIcon>
            <PersonAddIcon fontSize="small" />
          </ListItemIcon>
          Add another account
        </MenuItem>
        <MenuItem onClick={() => go(profile ? `/${profile.resourceType}/${profile.id}` : '/')} disabled={!profile}>
          <ListItemIcon>
            <SettingsIcon fontSize="small" />
          </ListItemIcon>
          Account settings
        </MenuItem>
        <MenuItem onClick={() => go('/security')}>
          <ListItemIcon>
            <SecurityIcon fontSize="small" />
          </ListItemIcon>
          Password and security
        </MenuItem>
        {/* Project admins and super admins only: the screen's data is theirs alone. */}
        {(client.isProjectAdmin() || client.isSuperAdmin()) && (
          <MenuItem onClick={() => go('/admin/project')}>
            <ListItemIcon>
              <AdminPanelSettingsIcon fontSize="small" />
            </ListItemIcon>
            Admin
          </MenuItem>
        )}
        <MenuItem onClick={() => void signOut()}>
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          Sign out
        </MenuItem>
        <Divider />
        <Typography variant="caption" color="text.secondary" component="p" sx={{ px: 2, py: 0.5 }}>
          Hearth EMR {APP_VERSION}
        </Typography>
      </Menu>
    </>
  );
}
