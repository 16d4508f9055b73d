import { Link as RouterLink } from 'react-router-dom';
import { IconButton, Tooltip } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/NotificationsNone';
import { CountBadge } from '../../src/shell';
import { useEPrescribingCounts } from './useEPrescribingCounts';

/** The header's e-prescribing bell (app-spec §2.5): DoseSpot's pending work as a red badge, linking to /dosespot. */
export function EPrescribingBell() {
  const { count, notConfigured, error } = useEPrescribingCounts(true);
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
        <CountBadge count={count} data-testid="eprescribing-count">
          <NotificationsIcon />
        </CountBadge>
      </IconButton>
    </Tooltip>
  );
}
