import { Box, CircularProgress } from '@mui/material';

/** Shown while the client loads the session (app-spec §2.5). */
export function FullScreenSpinner() {
  return (
    <Box
      role="status"
      aria-label="Loading"
      sx={{ position: 'fixed', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}
