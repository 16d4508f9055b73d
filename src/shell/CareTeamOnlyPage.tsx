import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Typography } from '@mui/material';
import { PORTAL_HOME_PATH } from './portalRouteAccess';

/**
 * What a patient in the portal sees at a care-team screen (portalRouteAccess.ts): a calm word and
 * the way home, rather than a clinician's form that would end in a raw "Forbidden".
 */
export function CareTeamOnlyPage() {
  return (
    <Box sx={{ py: 4, display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2 }}>
      <Typography variant="h5" component="h1">
        This page is for the care team.
      </Typography>
      <Typography variant="body1" color="text.secondary">
        Your messages and your own record are in the portal.
      </Typography>
      <Button variant="contained" component={RouterLink} to={PORTAL_HOME_PATH}>
        Back to your messages
      </Button>
    </Box>
  );
}
