import { useId, useState } from 'react';
import { Button, ListItemText, Menu, MenuItem, Typography } from '@mui/material';
import AppsIcon from '@mui/icons-material/Apps';
import { useToast } from '../../../src/shell/toasts';
import type { LaunchableApp } from './launchableApps';
import { useAppLaunch } from './useAppLaunch';
import { useLaunchableApps } from './useLaunchableApps';

/** A tab the launch is shown in, opened while the click still counts as the user's (no pop-up block). */
export interface LaunchTab {
  go(url: string): void;
  close(): void;
}

/** Opens an empty tab now; the app's address follows once the launch is saved. */
export function openLaunchTab(): LaunchTab | undefined {
  const opened = window.open('about:blank', '_blank');
  if (!opened) return undefined;
  // The app is another site: it gets no handle on the chart's window.
  opened.opener = null;
  return { go: (url) => opened.location.replace(url), close: () => opened.close() };
}

/**
 * "Apps": the project's SMART apps with a launch URI, each started from here as an EHR launch with
 * this chart's patient (and encounter) in a new tab. Shown only when there is an app to launch.
 */
export function AppLaunchMenu({
  context,
  openTab = openLaunchTab,
}: {
  context: { patientId: string; encounterId?: string };
  openTab?: () => LaunchTab | undefined;
}) {
  const apps = useLaunchableApps();
  const launch = useAppLaunch();
  const toast = useToast();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const list = apps.data ?? [];
  if (list.length === 0) return null;
  const caption = context.encounterId ? 'Launch with this patient and encounter' : 'Launch with this patient';

  const start = async (app: LaunchableApp) => {
    setAnchor(null);
    const tab = openTab();
    if (!tab) {
      toast.error(`The browser blocked the new tab for ${app.name}: allow pop-ups for this site and try again`);
      return;
    }
    try {
      tab.go(await launch(app, context));
      toast.info(`${app.name} opened in a new tab with this patient`);
    } catch (error) {
      tab.close();
      toast.error(error, { persist: true });
    }
  };

  return (
    <>
      <Button
        size="small"
        startIcon={<AppsIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ mx: 1, flexShrink: 0, textTransform: 'none', fontWeight: 600 }}
      >
        Apps
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-label': caption } }}
      >
        {/* Seen, and heard as the menu's name: a menu holds menu items only. */}
        <Typography
          variant="caption"
          color="text.secondary"
          component="li"
          role="presentation"
          aria-hidden
          sx={{ px: 2, py: 0.5, display: 'block' }}
        >
          {caption}
        </Typography>
        {list.map((app) => (
          <MenuItem key={app.id} onClick={() => void start(app)} sx={{ maxWidth: 360, whiteSpace: 'normal' }}>
            <ListItemText primary={app.name} secondary={app.description ?? new URL(app.launchUri).host} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
