import { useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { Alert, Button, Link, Stack, TextField, Typography } from '@mui/material';
import type { FhirClient } from '../../data-provider/client';
import { IssueList } from './IssueList';
import { safeNextPath } from './safeNextPath';
import { fieldError, requireEmail, requireValue, sortSignInError } from './signInErrors';
import { SignInDialog } from './SignInDialog';
import { useRegistrationOptions } from './useRegistrationOptions';
import { useSignInToast } from './useSignInToast';

interface RegisterForm {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  projectName: string;
}

const fields: { name: keyof RegisterForm; label: string; type?: string; autoComplete: string }[] = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'username' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password' },
  { name: 'projectName', label: 'Project Name', autoComplete: 'organization' },
];

/** Browser-side checks before anything is created: every field required, the e-mail well formed. */
function checkForm(form: RegisterForm): void {
  requireValue('firstName', form.firstName, 'First name');
  requireValue('lastName', form.lastName, 'Last name');
  requireEmail(form.email);
  requireValue('password', form.password, 'Password');
  requireValue('projectName', form.projectName, 'Project Name');
}

/**
 * `/register`: a new account and its first project (POST auth/newuser, then auth/newproject), then
 * signed in as the project's administrator. When the project step fails the account is kept and
 * Submit retries only the project.
 */
export function RegisterPage({
  client,
  onSignedIn = (path: string) => window.location.assign(path),
}: {
  client: FhirClient;
  onSignedIn?: (path: string) => void;
}) {
  const location = useLocation();
  const next = safeNextPath(new URLSearchParams(location.search).get('next'));
  const registration = useRegistrationOptions(client);
  const toast = useSignInToast();
  const [form, setForm] = useState<RegisterForm>({
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    projectName: '',
  });
  const [login, setLogin] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [issues, setIssues] = useState<string[]>([]);

  const submit = async () => {
    setBusy(true);
    setFieldErrors({});
    setIssues([]);
    try {
      checkForm(form);
      let loginId = login;
      if (!loginId) {
        const user = await client.startNewUser({
          firstName: form.firstName.trim(),
          lastName: form.lastName.trim(),
          email: form.email.trim(),
          password: form.password,
        });
        loginId = user.login;
        setLogin(loginId);
      }
      const answer = await client.startNewProject({ login: loginId, projectName: form.projectName.trim() });
      if (!answer.code) throw fieldError('projectName', 'The project was created but sign-in did not finish');
      await client.processCode(answer.code);
      onSignedIn(next);
    } catch (error) {
      const sorted = sortSignInError(error);
      if (sorted.toast) toast(sorted.toast);
      setFieldErrors(sorted.fields);
      setIssues(sorted.issues);
      setBusy(false);
    }
  };

  if (registration?.registration === 'closed') {
    return (
      <SignInDialog heading="Register for Hearth EMR">
        <Alert severity="info">Registration is closed on this server. Ask an administrator for an account.</Alert>
        <Link component={RouterLink} to="/signin" textAlign="center">
          Back to sign in
        </Link>
      </SignInDialog>
    );
  }
  return (
    <SignInDialog heading="Register for Hearth EMR">
      <IssueList issues={issues} />
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack spacing={2}>
          {fields.map((field, index) => (
            <TextField
              key={field.name}
              label={field.label}
              name={field.name}
              type={field.type ?? 'text'}
              required
              autoFocus={index === 0}
              autoComplete={field.autoComplete}
              // The account exists once created: only the project can still change.
              disabled={login !== undefined && field.name !== 'projectName'}
              value={form[field.name]}
              onChange={(e) => setForm((f) => ({ ...f, [field.name]: e.target.value }))}
              error={!!fieldErrors[field.name]}
              helperText={fieldErrors[field.name]}
            />
          ))}
          <Button type="submit" variant="contained" disabled={busy || !registration}>
            Create account
          </Button>
          <Typography variant="body2" textAlign="center">
            Already have an account?{' '}
            <Link component={RouterLink} to={next === '/' ? '/signin' : `/signin?next=${encodeURIComponent(next)}`}>
              Sign in
            </Link>
          </Typography>
        </Stack>
      </form>
    </SignInDialog>
  );
}
