import { useEffect, useState } from 'react';
import type { Project, User } from '@medplum/fhirtypes';
import type { FhirClient, LaunchAvailability, LoginState, ProfileResource } from '../../data-provider/client';
import { sameAccount } from '../../data-provider/client';
import { getDisplayString } from '../../data-provider/formatting';
import type { ContinuableAccount } from './useSignIn';

/** An account signed in to Hearth EMR in this browser whose session the server still accepts, as `/oauth` names it. */
export interface SignedInAccount extends ContinuableAccount {
  /** Tells the accounts apart in a list: profile and project. */
  key: string;
  project?: string;
  email?: string;
  /** For an app opened with an EHR launch: whether the server lets this account's session continue into it. */
  launch?: LaunchAvailability;
}

function accountOf(
  login: LoginState,
  active: boolean,
  { profile, project, user }: { profile: ProfileResource; project?: Project; user?: User },
): SignedInAccount {
  return {
    key: `${profile.resourceType}/${profile.id ?? ''} ${project?.id ?? ''}`,
    login,
    active,
    name: getDisplayString(profile),
    project: project?.name,
    email: user?.email,
  };
}

/** The active login's account, through the client's own session (renewed as any of its calls would be). */
async function activeAccount(client: FhirClient, launch: string | undefined): Promise<SignedInAccount | undefined> {
  const profile = await client.getProfileAsync();
  const login = client.getActiveLogin();
  if (!profile || !login) return undefined;
  const account = accountOf(login, true, { profile, project: client.getProject(), user: client.getSessionUser() });
  return launch ? { ...account, launch: await client.getLaunchAvailability(launch) } : account;
}

async function storedAccount(
  client: FhirClient,
  login: LoginState,
  launch: string | undefined,
): Promise<SignedInAccount> {
  const { login: current, details } = await client.getStoredLoginSession(login);
  const account = accountOf(current, false, details);
  // Asked with the renewed login: the one read from the list may hold a spent token by now.
  return launch ? { ...account, launch: await client.getStoredLaunchAvailability(current, launch) } : account;
}

/**
 * Every account signed in to Hearth EMR in this browser that can still be used, the active one
 * first and the others in the account menu's order; `undefined` while their sessions are checked.
 * Each is checked with the server (`GET auth/me` with its own token): an account whose session has
 * ended or was refused is left out, so the page never offers a button that cannot work. For an
 * app opened with an EHR `launch`, each account's own session also asks the server whether it
 * could continue into that launch (`launch` on each account; launchAccountChoice.ts decides what
 * is offered). Nothing is checked (and `[]` answered) unless `wanted` when the page mounts.
 */
export function useSignedInAccounts(
  client: FhirClient,
  wanted: boolean,
  launch?: string,
): SignedInAccount[] | undefined {
  const [accounts, setAccounts] = useState<SignedInAccount[] | undefined>(() =>
    wanted && (client.getLogins().length > 0 || client.getActiveLogin()) ? undefined : [],
  );
  useEffect(() => {
    if (!wanted) return;
    const active = client.getActiveLogin();
    const others = client.getLogins().filter((login) => !active || !sameAccount(active, login));
    let live = true;
    const checks = [
      active ? activeAccount(client, launch) : Promise.resolve(undefined),
      ...others.map((login) => storedAccount(client, login, launch)),
    ];
    void Promise.allSettled(checks).then((results) => {
      if (!live) return;
      const usable: SignedInAccount[] = [];
      for (const result of results) {
        // A refused or unreachable session is no account to offer: credentials are the way in.
        if (result.status !== 'fulfilled' || !result.value) continue;
        if (usable.some((account) => account.key === result.value?.key)) continue;
        usable.push(result.value);
      }
      setAccounts(usable);
    });
    return () => {
      live = false;
    };
    // Checked once per page: the accounts do not change under the page, and each check may renew a token.
  }, [client]);
  return accounts;
}
