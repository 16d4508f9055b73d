import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  List,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import LocalHospitalIcon from '@mui/icons-material/LocalHospital';
import type { FhirClient } from '../../data-provider/client';
import { useSignIn } from './useSignIn';

/** 'Sign in to Hearth EMR': the steps of app-spec §2.11 that the server offers today. */
export function SignInPage({ client }: { client: FhirClient }) {
  const navigate = useNavigate();
  const { state, submitEmail, submitPassword, submitMfa, chooseProfile, back } = useSignIn(client, () => {
    navigate('/');
    // The shell reads the active login at start-up.
    window.location.reload();
  });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [code, setCode] = useState('');
  const onSubmit = (work: () => void) => (event: FormEvent) => {
    event.preventDefault();
    work();
  };

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
      }}
    >
      <Paper component="main" sx={{ width: 450, maxWidth: '100%', p: 4 }} elevation={3}>
        <Stack spacing={2} alignItems="stretch">
          <Stack direction="row" spacing={1} alignItems="center" justifyContent="center">
            <LocalHospitalIcon color="primary" titleAccess="Hearth EMR" />
            <Typography variant="h5" component="h1">
              Sign in to Hearth EMR
            </Typography>
          </Stack>
          {state.error && (
            <Alert severity="error" role="alert">
              {state.error}
            </Alert>
          )}
          {state.step === 'email' && (
            <form onSubmit={onSubmit(() => void submitEmail(email))} noValidate>
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
                  error={!!state.fieldErrors.email}
                  helperText={state.fieldErrors.email}
                />
                <Button type="submit" variant="contained" disabled={state.busy}>
                  Next
                </Button>
              </Stack>
            </form>
          )}
          {state.step === 'password' && (
            <form onSubmit={onSubmit(() => void submitPassword(password, remember))} noValidate>
              <Stack spacing={2}>
                <Typography variant="body2" color="text.secondary">
                  {state.email}{' '}
                  <Button size="small" onClick={back}>
                    Change
                  </Button>
                </Typography>
                <TextField
                  label="Password"
                  type="password"
                  name="password"
                  required
                  autoFocus
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  error={!!state.fieldErrors.password}
                  helperText={state.fieldErrors.password}
                />
                <FormControlLabel
                  control={<Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)} />}
                  label="Remember me"
                />
                <Button type="submit" variant="contained" disabled={state.busy}>
                  Sign in
                </Button>
              </Stack>
            </form>
          )}
          {state.step === 'mfa' && (
            <form onSubmit={onSubmit(() => void submitMfa(code))} noValidate>
              <Stack spacing={2}>
                <TextField
                  label="MFA code"
                  name="token"
                  required
                  autoFocus
                  autoComplete="one-time-code"
                  inputProps={{ inputMode: 'numeric' }}
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  error={!!state.fieldErrors.token}
                  helperText={state.fieldErrors.token}
                />
                <Button type="submit" variant="contained" disabled={state.busy}>
                  Submit code
                </Button>
              </Stack>
            </form>
          )}
          {state.step === 'profile' && (
            <>
              <Typography variant="h6" component="h2">
                Choose profile
              </Typography>
              {state.memberships.length === 0 ? (
                <Typography>Nothing found...</Typography>
              ) : (
                <List aria-label="Profiles">
                  {state.memberships.map((membership) => (
                    <ListItemButton
                      key={membership.id}
                      onClick={() => void chooseProfile(membership.id)}
                      disabled={state.busy}
                    >
                      <ListItemText primary={membership.profile} secondary={membership.project} />
                    </ListItemButton>
                  ))}
                </List>
              )}
            </>
          )}
        </Stack>
      </Paper>
    </Box>
  );
}
