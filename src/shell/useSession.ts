import { useEffect, useState } from 'react';
import type { Project, ProjectMembership, UserConfiguration } from '@medplum/fhirtypes';
import type { FhirClient, LoginState, ProfileResource } from '../../data-provider/client';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { useShellClient } from './shellClient';

export interface SessionSnapshot {
  /** A login is active but its session (GET auth/me) has not arrived yet. */
  loading: boolean;
  signedIn: boolean;
  profile?: ProfileResource;
  project?: Project;
  membership?: ProjectMembership;
  config?: UserConfiguration;
  activeLogin?: LoginState;
  logins: LoginState[];
  /** The session could not be loaded (server down, ...). */
  error?: string;
}

function snapshot(client: FhirClient, error?: string): SessionSnapshot {
  const activeLogin = client.getActiveLogin();
  const profile = client.getProfile();
  return {
    loading: activeLogin !== undefined && profile === undefined && error === undefined,
    signedIn: activeLogin !== undefined,
    profile,
    project: client.getProject(),
    membership: client.getProjectMembership(),
    config: client.getUserConfiguration(),
    activeLogin,
    logins: client.getLogins(),
    error,
  };
}

/** The signed-in session, loaded on first use and kept current on the client's `change` events. */
export function useSession(): SessionSnapshot {
  const client = useShellClient();
  const [state, setState] = useState(() => snapshot(client));
  useEffect(() => {
    const update = () => setState(snapshot(client));
    client.addEventListener('change', update);
    if (client.getActiveLogin() && !client.getProfile()) {
      client
        .getProfileAsync()
        .then(update, (error: unknown) => setState(snapshot(client, normalizeErrorString(error))));
    } else {
      update();
    }
    return () => client.removeEventListener('change', update);
  }, [client]);
  return state;
}
