import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Button, Divider, Link, Stack, TextField, Typography } from '@mui/material';
import type { SignInFlow } from '../useSignIn';

/** Email, Next; a Register link when registration is open; an external sign-in button under an "or" divider. */
export function EmailStep({
  flow,
  registerPath,
  externalButton,
}: {
  flow: SignInFlow;
  /** Where the Register link goes; no link when registration is closed. */
  registerPath?: string;
  externalButton?: ReactNode;
}) {
  const [email, setEmail] = useState(flow.state.email);
  const { busy, fieldErrors } = flow.state;
  return (
    <Stack spacing={2}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void flow.submitEmail(email);
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
            Next
          </Button>
        </Stack>
      </form>
      {registerPath && (
        <Typography variant="body2" textAlign="center">
          No account yet?{' '}
          <Link component={RouterLink} to={registerPath}>
            Register
          </Link>
        </Typography>
      )}
      {externalButton && (
        <>
          <Divider>or</Divider>
          {externalButton}
        </>
      )}
    </Stack>
  );
}
