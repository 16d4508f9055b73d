import { Box, Divider, Paper, Stack, Typography } from '@mui/material';
import { ChangePasswordForm } from './ChangePasswordForm';
import { MfaSection } from './MfaSection';
import { SessionsSection } from './SessionsSection';

/** Password and security (`/security`): change password, two-factor enrolment, active sessions. */
export default function AccountSettingsPage() {
  return (
    <Box sx={{ p: { xs: 2, sm: 3 }, maxWidth: 900 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Password and security
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={3} divider={<Divider />}>
          <Box sx={{ maxWidth: 400 }}>
            <ChangePasswordForm />
          </Box>
          <MfaSection />
          <SessionsSection />
        </Stack>
      </Paper>
    </Box>
  );
}
