import { Alert, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { IssueList } from './IssueList';
import { ChooseProfileStep } from './steps/ChooseProfileStep';
import { ChooseScopeStep } from './steps/ChooseScopeStep';
import { EmailStep } from './steps/EmailStep';
import { MfaStep } from './steps/MfaStep';
import { NewProjectStep } from './steps/NewProjectStep';
import { PasswordStep } from './steps/PasswordStep';
import type { SignInFlow } from './useSignIn';
import type { ReactNode } from 'react';

/** The current step of a sign-in, with the server's general issues above it (MFA shows its own alert). */
export function SignInSteps({
  flow,
  registerPath,
  resetPasswordPath,
  externalButton,
  appName,
}: {
  flow: SignInFlow;
  registerPath?: string;
  resetPasswordPath: string;
  externalButton?: ReactNode;
  /** The third-party app the sign-in is for (`/oauth`), named in the consent step. */
  appName?: string;
}) {
  const { step, issues } = flow.state;
  return (
    <>
      {step !== 'mfa' && <IssueList issues={issues} />}
      {step === 'email' && <EmailStep flow={flow} registerPath={registerPath} externalButton={externalButton} />}
      {step === 'password' && <PasswordStep flow={flow} resetPasswordPath={resetPasswordPath} />}
      {step === 'mfa' && <MfaStep flow={flow} />}
      {step === 'profile' && <ChooseProfileStep flow={flow} />}
      {step === 'newProject' && <NewProjectStep flow={flow} />}
      {step === 'scope' && <ChooseScopeStep flow={flow} appName={appName} />}
      {step === 'success' && (
        <Stack spacing={2} alignItems="center">
          {issues.length === 0 && (
            <Alert severity="success" sx={{ width: '100%' }}>
              Signed in.
            </Alert>
          )}
          {!flow.state.busy && issues.length > 0 && (
            <Button variant="contained" onClick={flow.back}>
              Sign in again
            </Button>
          )}
          {flow.state.busy && (
            <Stack direction="row" spacing={1} alignItems="center">
              <CircularProgress size={20} aria-label="Opening" />
              <Typography variant="body2">Opening...</Typography>
            </Stack>
          )}
        </Stack>
      )}
    </>
  );
}
