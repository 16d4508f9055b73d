import { Link as RouterLink } from 'react-router-dom';
import { IconButton, Tooltip } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/NotificationsNone';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOffOutlined';
import { CountBadge } from '../../src/shell';
import { useEPrescribingCounts } from './useEPrescribingCounts';

/**
 * The header's e-prescribing bell (app-spec §2.5): DoseSpot's pending work as a red badge, linking
 * to /dosespot. When the counts cannot be had (DoseSpot unreachable, the project not configured)
 * the bell is struck through in the warning colour, and its tooltip and name say why: an ordinary
 * bell without a badge would read as "nothing pending", which nobody knows.
 */
export function EPrescribingBell() {
  const { count, notConfigured, error } = useEPrescribingCounts(true);
  const unavailable = notConfigured || error !== undefined;
  const label = notConfigured
    ? 'E-prescribing notifications: not configured'
    : error
      ? `E-prescribing notifications: unavailable (${error})`
      : `E-prescribing notifications: ${count ?? 'loading'}`;
  return (
    <Tooltip
      title={
        notConfigured ? 'E-prescribing is not configured for this project' : (error ?? 'E-prescribing notifications')
      }
    >
      <IconButton
        color="inherit"
        component={RouterLink}
        to="/dosespot"
        aria-label={label}
        data-testid="eprescribing-bell"
      >
        {unavailable ? (
          <NotificationsOffIcon color="warning" data-testid="eprescribing-bell-unavailable" />
        ) : (
          <CountBadge count={count} data-testid="eprescribing-count">
            <NotificationsIcon />
          </CountBadge>
        )}
      </IconButton>
    </Tooltip>
  );
}
