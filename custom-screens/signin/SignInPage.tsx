import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { FhirClient } from '../../data-provider/client';
import { GoogleSignInButton } from './GoogleSignInButton';
import { safeNextPath } from './safeNextPath';
import { SignInDialog } from './SignInDialog';
import { SignInSteps } from './SignInSteps';
import { useRegistrationOptions } from './useRegistrationOptions';
import { useSignIn } from './useSignIn';
import { useSignInToast } from './useSignInToast';

/** Opens the page after sign-in with a full load, so the shell starts with the new session. */
function openPage(path: string): void {
  window.location.assign(path);
}

/** `?next=` kept on links between the signed-out pages. */
function withNext(path: string, next: string): string {
  return next === '/' ? path : `${path}?next=${encodeURIComponent(next)}`;
}

/**
 * `/signin`: the sign-in flow of app-spec §2.11 for this app. Lands on `/` or on the page first asked
 * for (`?next=`, same-site paths only). Also where an external identity provider's sign-in comes back
 * (`?login=`, `?code=` or `?error=`).
 */
export function SignInPage({
  client,
  onSignedIn = openPage,
  redirect,
}: {
  client: FhirClient;
  /** Called with the page to open once the code is exchanged (default: a full page load). */
  onSignedIn?: (path: string) => void;
  /** Sends the browser to an identity provider (default: the address bar). */
  redirect?: (url: string) => void;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);
  const next = safeNextPath(params.get('next'));
  const toast = useSignInToast();
  const registration = useRegistrationOptions(client);
  const flow = useSignIn(client, {
    returnUrl: `${window.location.origin}${withNext('/signin', next)}`,
    finish: async (code) => {
      await client.processCode(code);
      onSignedIn(next);
    },
    onToast: toast,
    redirect,
  });

  // Back from an identity provider: continue once, then drop the one-time values from the address.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current) return;
    const login = params.get('login') ?? undefined;
    const code = params.get('code') ?? undefined;
    const error = params.get('error') ?? undefined;
    if (!login && !code && !error) return;
    resumed.current = true;
    navigate(withNext('/signin', next), { replace: true });
    void flow.resumeExternal({ login, code, error });
    // Only for the address the page opened with.
  }, []);

  const googleClientId = registration?.googleClientId;
  return (
    <SignInDialog>
      <SignInSteps
        flow={flow}
        registerPath={registration?.registration === 'open' ? withNext('/register', next) : undefined}
        resetPasswordPath="/resetpassword"
        externalButton={
          googleClientId ? (
            <GoogleSignInButton
              googleClientId={googleClientId}
              onCredential={(credential) => void flow.signInWithGoogle(googleClientId, credential)}
            />
          ) : undefined
        }
      />
    </SignInDialog>
  );
}
