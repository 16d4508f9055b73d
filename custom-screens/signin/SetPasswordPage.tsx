import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Alert, Button, Link, Stack, TextField, Typography } from '@mui/material';
import type { FhirClient } from '../../data-provider/client';
import { IssueList } from './IssueList';
import { fieldError, requireValue, sortSignInError } from './signInErrors';
import { SignInDialog } from './SignInDialog';
import { useSignInToast } from './useSignInToast';

/**
 * `/setpassword/:id/:secret`: the link of the reset or invitation e-mail; a new password, typed
 * twice. Completing it proves the address is the reader's: it replaces the account's password,
 * signs out its sessions and opens invitations that waited for the address owner (server
 * `/auth/setpassword`).
 */
export function SetPasswordPage({ client }: { client: FhirClient }) {
  const { id = '', secret = '' } = useParams();
  const toast = useSignInToast();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [issues, setIssues] = useState<string[]>([]);

  const submit = async () => {
    setBusy(true);
    setFieldErrors({});
    setIssues([]);
    try {
      requireValue('password', password, 'Password');
      if (password !== confirm) throw fieldError('confirmPassword', 'Passwords do not match');
      await client.setPassword(id, secret, password);
      setDone(true);
    } catch (error) {
      const sorted = sortSignInError(error);
      if (sorted.toast) toast(sorted.toast);
      // The link's own problems (used, expired) name the secret: say them above the form.
      const { secret: linkProblem, id: idProblem, ...fields } = sorted.fields;
      setFieldErrors(fields);
      setIssues([...[linkProblem, idProblem].filter((m): m is string => !!m), ...sorted.issues]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <SignInDialog heading="Choose a new password">
      {done ? (
        <Alert severity="success" role="status">
          Your password is set. You can sign in with it now; invitations that waited for this address are open.
        </Alert>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary">
            This confirms that the e-mail address is yours. The password replaces the account&apos;s current one, if it
            had one, and every session of the account is signed out.
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
                label="New password"
                type="password"
                name="password"
                required
                autoFocus
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                error={!!fieldErrors.password}
                helperText={fieldErrors.password}
              />
              <TextField
                label="Confirm password"
                type="password"
                name="confirmPassword"
                required
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
                error={!!fieldErrors.confirmPassword}
                helperText={fieldErrors.confirmPassword}
              />
              <Button type="submit" variant="contained" disabled={busy}>
                Set password
              </Button>
            </Stack>
          </form>
        </>
      )}
      <Link component={RouterLink} to="/signin" textAlign="center">
        {done ? 'Sign in' : 'Back to sign in'}
      </Link>
    </SignInDialog>
  );
}
