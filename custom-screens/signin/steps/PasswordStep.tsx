import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Button, Checkbox, FormControlLabel, Link, Stack, TextField, Typography } from '@mui/material';
import type { SignInFlow } from '../useSignIn';

/** Password, Remember me, Forgot password, Sign in. */
export function PasswordStep({ flow, resetPasswordPath }: { flow: SignInFlow; resetPasswordPath: string }) {
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const { busy, fieldErrors, email } = flow.state;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void flow.submitPassword(password, remember);
      }}
    >
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between">
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {email}
          </Typography>
          <Button size="small" onClick={flow.back} aria-label="Change email">
            Change
          </Button>
        </Stack>
        {/* The e-mail again, hidden, so password managers pair it with the password. */}
        <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
        <TextField
          label="Password"
          type="password"
          name="password"
          required
          autoFocus
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={!!fieldErrors.password}
          helperText={fieldErrors.password}
        />
        <Stack direction="row" alignItems="center" justifyContent="space-between">
          <FormControlLabel
            control={<Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)} />}
            label="Remember me"
          />
          <Link component={RouterLink} to={resetPasswordPath} variant="body2">
            Forgot password
          </Link>
        </Stack>
        <Button type="submit" variant="contained" disabled={busy}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
