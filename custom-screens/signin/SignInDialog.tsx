import type { ReactNode } from 'react';
import { Box, createTheme, Paper, Stack, ThemeProvider, Typography, type Theme } from '@mui/material';
import LocalHospitalIcon from '@mui/icons-material/LocalHospital';

/** Width of the sign-in dialog (app-spec §2.11). */
export const SIGN_IN_DIALOG_WIDTH = 450;

// MUI's red (#d32f2f) on a filled field's grey falls under 4.5:1; a darker red keeps error labels legible.
const legibleErrors = (outer: Theme): Theme => {
  // Without an app theme above (tests, a page rendered alone) MUI's default applies.
  const base = (outer as Partial<Theme>).palette ? outer : createTheme();
  return base.palette.mode === 'light' ? createTheme(base, { palette: { error: { main: '#c62828' } } }) : base;
};

/** The frame of every signed-out page: centred dialog, 450 wide, with the logo and a heading. */
export function SignInDialog({
  heading = 'Sign in to Hearth EMR',
  children,
}: {
  heading?: string;
  children: ReactNode;
}) {
  return (
    <ThemeProvider theme={legibleErrors}>
      <Box
        sx={{
          minHeight: '100vh',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          bgcolor: 'background.default',
          p: 2,
        }}
      >
        <Paper
          component="main"
          aria-labelledby="signin-heading"
          sx={{ width: SIGN_IN_DIALOG_WIDTH, maxWidth: '100%', p: 4 }}
          elevation={3}
        >
          <Stack spacing={2} alignItems="stretch">
            <Stack spacing={1} alignItems="center">
              <LocalHospitalIcon color="primary" sx={{ fontSize: 48 }} titleAccess="Hearth EMR" role="img" />
              <Typography id="signin-heading" variant="h5" component="h1" textAlign="center">
                {heading}
              </Typography>
            </Stack>
            {children}
          </Stack>
        </Paper>
      </Box>
    </ThemeProvider>
  );
}
