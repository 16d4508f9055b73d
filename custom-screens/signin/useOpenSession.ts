import { useEffect, useState } from 'react';
import type { FhirClient } from '../../data-provider/client';
import { getDisplayString } from '../../data-provider/formatting';

/** The Hearth EMR session already open in this browser, as the `/oauth` page names it. */
export interface OpenSession {
  /** The profile's name (Practitioner, Patient, ...). */
  name: string;
  project?: string;
  email?: string;
}

/**
 * Whether someone is signed in to Hearth EMR in this browser, and who: `undefined` while the
 * session loads, `null` when there is none or it has ended (the page then asks for credentials).
 */
export function useOpenSession(client: FhirClient): OpenSession | null | undefined {
  const [session, setSession] = useState<OpenSession | null | undefined>(() =>
    client.getActiveLogin() ? undefined : null,
  );
  useEffect(() => {
    if (!client.getActiveLogin()) return;
    let live = true;
    client.getProfileAsync().then(
      (profile) => {
        if (!live) return;
        if (!profile || !client.getActiveLogin()) return setSession(null);
        setSession({
          name: getDisplayString(profile),
          project: client.getProject()?.name,
          email: client.getSessionUser()?.email,
        });
      },
      // An ended or refused session is no session: the ordinary sign-in follows.
      () => live && setSession(null),
    );
    return () => {
      live = false;
    };
  }, [client]);
  return session;
}
