import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Alert, CircularProgress, Stack, Typography } from '@mui/material';
import type { FhirClient } from '../../data-provider/client';
import { parseAuthorizePrompt, redirectUriProblem } from '../../data-provider/rules';
import { SignInDialog } from './SignInDialog';
import { IssueList } from './IssueList';
import { SignInSteps } from './SignInSteps';
import { ChooseAccountStep } from './steps/ChooseAccountStep';
import { LaunchProblemNotice, NotOfferedNotice } from './steps/LaunchAccountNotice';
import { launchAccountChoice } from './launchAccountChoice';
import { useAppName } from './useAppName';
import { useSignedInAccounts } from './useSignedInAccounts';
import { useSignIn, type ThirdPartyRequest } from './useSignIn';
import { useSignInToast } from './useSignInToast';

/** The parameters `/oauth2/authorize` hands over (it checked the client and its redirect URI). */
export function thirdPartyRequest(search: string): ThirdPartyRequest | undefined {
  const query = new URLSearchParams(search);
  const clientId = query.get('client_id');
  const redirectUri = query.get('redirect_uri');
  if (!clientId || !redirectUri) return undefined;
  const optional = (name: string) => query.get(name) ?? undefined;
  return {
    clientId,
    redirectUri,
    scope: optional('scope'),
    state: optional('state'),
    codeChallenge: optional('code_challenge'),
    codeChallengeMethod: optional('code_challenge_method'),
    nonce: optional('nonce'),
    launch: optional('launch'),
  };
}

/**
 * The app's address with the code (and its own `state`), as OAuth2 asks. The server registered and
 * checked the address, but this page is where the browser is sent: a `javascript:` or `data:`
 * address would run with the signed-in session, so the scheme is checked once more right here.
 */
export function redirectWithCode(request: ThirdPartyRequest, code: string): string {
  const problem = redirectUriProblem(request.redirectUri);
  if (problem) throw new Error(problem);
  const url = new URL(request.redirectUri);
  url.searchParams.set('code', code);
  if (request.state !== undefined) url.searchParams.set('state', request.state);
  return url.toString();
}

const answerParams = ['login', 'code', 'error'];

/**
 * `/oauth`: signs a user in for a third-party app (SMART on FHIR, OAuth2 code flow) with the same
 * steps as `/signin`, then sends the browser to the app's redirect URI with `code` and `state`. The
 * code is bound to the app's client id and PKCE challenge, so only that app can exchange it. When
 * accounts are signed in to Hearth EMR in this browser (an app launched from the chart), the page
 * offers to continue as one of them instead of asking for a password again — for an EHR launch,
 * only the account that started it (the server says which: launchAccountChoice.ts).
 */
export function OAuthPage({
  client,
  redirect = (url: string) => window.location.assign(url),
}: {
  client: FhirClient;
  redirect?: (url: string) => void;
}) {
  const location = useLocation();
  const request = thirdPartyRequest(location.search);
  const toast = useSignInToast();
  const returnUrl = new URL(`${window.location.origin}${location.pathname}${location.search}`);
  for (const name of answerParams) returnUrl.searchParams.delete(name);
  const flow = useSignIn(client, {
    returnUrl: returnUrl.toString(),
    thirdParty: request,
    finish: async (code) => redirect(redirectWithCode(request as ThirdPartyRequest, code)),
    onToast: toast,
  });

  const appName = useAppName(client, request?.clientId);
  const asker = appName ?? 'An application';
  const [otherAccount, setOtherAccount] = useState(false);
  const resuming = answerParams.some((name) => new URLSearchParams(location.search).has(name));
  // prompt=login: the app wants the person to sign in again, not to carry on as whoever is signed in.
  const prompt = parseAuthorizePrompt(new URLSearchParams(location.search).get('prompt') ?? undefined);
  const mustSignIn = prompt.ok && prompt.values.has('login');
  // Checking the accounts renews expired ones: not done when none of them will be offered.
  const redirectProblem = request ? redirectUriProblem(request.redirectUri) : undefined;
  const signedIn = useSignedInAccounts(
    client,
    !!request && !redirectProblem && !resuming && !mustSignIn,
    request?.launch,
  );
  // An EHR launch can be continued into by the account that started it only: the others are not offered.
  const launchChoice = request?.launch && signedIn ? launchAccountChoice(signedIn) : undefined;
  const accounts = launchChoice ? launchChoice.offered : signedIn;

  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || !request) return;
    const params = new URLSearchParams(location.search);
    const [login, code, error] = answerParams.map((name) => params.get(name) ?? undefined);
    if (!login && !code && !error) return;
    resumed.current = true;
    window.history.replaceState(null, '', returnUrl.toString());
    void flow.resumeExternal({ login, code, error });
  }, []);

  if (redirectProblem) {
    return (
      <SignInDialog>
        <Alert severity="error">
          This sign-in link is not valid: {redirectProblem}. Start the sign-in again from the application, or tell its
          maker.
        </Alert>
      </SignInDialog>
    );
  }
  if (!request) {
    return (
      <SignInDialog>
        <Alert severity="error">
          This sign-in link is incomplete: it needs the application&apos;s client_id and redirect_uri. Start the sign-in
          again from the application.
        </Alert>
      </SignInDialog>
    );
  }
  const consenting = flow.state.step === 'scope' || flow.state.step === 'success';
  const offerSession = flow.state.step === 'email' && !otherAccount && !resuming && !resumed.current && !mustSignIn;
  if (offerSession && accounts === undefined) {
    return (
      <SignInDialog>
        <Stack alignItems="center" py={2}>
          <CircularProgress aria-label="Loading your accounts" />
        </Stack>
      </SignInDialog>
    );
  }
  if (offerSession && launchChoice?.problem) {
    return (
      <SignInDialog heading={`Continue to ${appName ?? 'the application'}`}>
        <LaunchProblemNotice
          problem={launchChoice.problem}
          appName={appName ?? 'the application'}
          onOtherAccount={() => setOtherAccount(true)}
        />
      </SignInDialog>
    );
  }
  if (offerSession && accounts && accounts.length > 0) {
    return (
      <SignInDialog heading={`Continue to ${appName ?? 'the application'}`}>
        <Typography variant="body2" color="text.secondary" textAlign="center">
          {asker} asks to use your Hearth EMR account.{' '}
          {accounts.length === 1 ? 'You are signed in as:' : 'Choose an account:'}
        </Typography>
        {/* The chooser has no fields: a refusal naming one (the app's redirect URI, say) is listed too. */}
        <IssueList issues={[...flow.state.issues, ...Object.values(flow.state.fieldErrors)]} />
        <NotOfferedNotice notOffered={launchChoice?.notOffered ?? []} appName={appName ?? 'the application'} />
        <ChooseAccountStep flow={flow} accounts={accounts} onOtherAccount={() => setOtherAccount(true)} />
      </SignInDialog>
    );
  }
  return (
    // Once signed in, the page is about what the app may do, no longer about signing in.
    <SignInDialog heading={consenting ? `Allow ${appName ?? 'the application'}` : undefined}>
      {!consenting && (
        <Typography variant="body2" color="text.secondary" textAlign="center">
          {asker} asks to use your Hearth EMR account. Sign in to continue.
        </Typography>
      )}
      <SignInSteps flow={flow} resetPasswordPath="/resetpassword" appName={appName} />
    </SignInDialog>
  );
}
