import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Button, Link, Stack, TextField, Typography } from '@mui/material';
import type { FhirClient } from '../../data-provider/client';
import { IssueList } from './IssueList';
import { requireEmail, sortSignInError } from './signInErrors';
import { SignInDialog } from './SignInDialog';
import { useSignInToast } from './useSignInToast';

/** What every request for a reset link is told: it never reveals whether the account exists. */
export const RESET_SENT_MESSAGE =
  'If an account uses this email, a message with a link to choose a new password is on its way. The link works once, for 24 hours.';

/** `/resetpassword` (Forgot password): asks the server to e-mail a one-time link. */
export function ResetPasswordPage({ client }: { client: FhirClient }) {
  const toast = useSignInToast();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [issues, setIssues] = useState<string[]>([]);

  const submit = async () => {
    setBusy(true);
    setFieldErrors({});
    setIssues([]);
    try {
      await client.resetPassword(requireEmail(email));
      setSent(true);
    } catch (error) {
      const sorted = sortSignInError(error);
      if (sorted.toast) toast(sorted.toast);
      setFieldErrors(sorted.fields);
      setIssues(sorted.issues);
    } finally {
      setBusy(false);
    }
  };

  return (
    <SignInDialog heading="Reset your password">
      {sent ? (
        <Alert severity="success" role="status">
          {RESET_SENT_MESSAGE}
        </Alert>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary">
            Enter the email of your account and we will send you a link to choose a new password.
          </Typography>
          <IssueList issues={issues} />
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <Stack spacing={2}>
              <TextField
                label="Email"
                type="email"
                name="email"
                required
                autoFocus
                autoComplete="username"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                error={!!fieldErrors.email}
                helperText={fieldErrors.email}
              />
              <Button type="submit" variant="contained" disabled={busy}>
                Send reset link
              </Button>
            </Stack>
          </form>
        </>
      )}
      <Link component={RouterLink} to="/signin" textAlign="center">
        Back to sign in
      </Link>
    </SignInDialog>
  );
}
