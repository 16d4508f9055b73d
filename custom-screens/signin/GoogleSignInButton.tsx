import { useEffect, useRef, useState } from 'react';
import { Typography } from '@mui/material';

/** Google Identity Services, loaded from Google only when the server has a Google client id. */
const GSI_SCRIPT = 'https://accounts.google.com/gsi/client';

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential?: string }) => void }): void;
      renderButton(element: HTMLElement, options: Record<string, unknown>): void;
    };
  };
}

declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

let scriptPromise: Promise<void> | undefined;

function loadGoogleScript(): Promise<void> {
  scriptPromise ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      scriptPromise = undefined;
      reject(new Error('Google sign-in could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return scriptPromise;
}

/**
 * "Sign in with Google": Google's own button; the credential it returns goes to `onCredential`
 * (POST auth/google). Without a connection to Google the button says it cannot load.
 */
export function GoogleSignInButton({
  googleClientId,
  onCredential,
}: {
  googleClientId: string;
  onCredential: (credential: string) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const callback = useRef(onCredential);
  callback.current = onCredential;
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadGoogleScript().then(
      () => {
        const google = window.google;
        if (!live || !google || !container.current) return;
        google.accounts.id.initialize({
          client_id: googleClientId,
          callback: (response) => response.credential && callback.current(response.credential),
        });
        google.accounts.id.renderButton(container.current, { type: 'standard', text: 'signin_with', width: 384 });
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [googleClientId]);
  return (
    <div>
      <div ref={container} data-testid="google-sign-in" style={{ display: 'flex', justifyContent: 'center' }} />
      {failed && (
        <Typography variant="body2" color="text.secondary" textAlign="center">
          Sign in with Google is unavailable: Google&apos;s sign-in script could not be loaded.
        </Typography>
      )}
    </div>
  );
}
