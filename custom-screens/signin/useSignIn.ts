import { useCallback, useRef, useState } from 'react';
import type { ProjectMembership } from '@medplum/fhirtypes';
import type { ContinueSignInRequest, FhirClient, LoginResponse, LoginState } from '../../data-provider/client';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { issueError, requireEmail, requireValue, sortSignInError } from './signInErrors';

/** The steps of app-spec §2.11 and §4, in order. */
export type SignInStep = 'email' | 'password' | 'mfa' | 'profile' | 'newProject' | 'scope' | 'success';

export interface MembershipOption {
  id: string;
  profile: string;
  project: string;
}

/** A third-party app's authorize request, handed over by `/oauth2/authorize` to the `/oauth` page. */
export interface ThirdPartyRequest {
  clientId: string;
  redirectUri: string;
  scope?: string;
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  nonce?: string;
  /** SMART EHR launch context id, handed on to the server. */
  launch?: string;
}

/** An account signed in to Hearth EMR in this browser that a third-party app's sign-in may continue from. */
export interface ContinuableAccount {
  login: LoginState;
  /** The client's active login (the one the app's tabs use); the others are sent with their own token. */
  active: boolean;
  /** The profile's name, for messages about this account. */
  name: string;
}

/** Said when the server no longer knows an account's session (401): only its credentials help now. */
export function endedSessionMessage(name: string): string {
  return `The session of ${name} in this browser has ended. Choose "Use another account" to sign in again.`;
}

/** The server's refusal of one account, its issues each prefixed with the account's name. */
function refusalOf(name: string, error: OperationOutcomeError): OperationOutcomeError {
  const issue = (error.outcome.issue ?? []).map((entry) => ({
    ...entry,
    details: { ...entry.details, text: `${name}: ${entry.details?.text ?? entry.diagnostics ?? 'refused'}` },
  }));
  return new OperationOutcomeError({ ...error.outcome, issue }, error.status);
}

export interface SignInOptions {
  /** This page's address: where the server sends the browser back after an external identity provider. */
  returnUrl: string;
  /** Set on the `/oauth` page: the sign-in is for that app, with its client id, scope and PKCE challenge. */
  thirdParty?: ThirdPartyRequest;
  /** What to do with the authorization code at the end (exchange it, or hand it to the app). */
  finish: (code: string) => Promise<void>;
  /** Failures that are not OperationOutcomes (no connection, ...): shown as a red toast. */
  onToast: (message: string) => void;
  /** Sends the browser to an identity provider (injectable for tests). */
  redirect?: (url: string) => void;
}

export interface SignInState {
  step: SignInStep;
  email: string;
  login?: string;
  busy: boolean;
  /** Messages under fields, by the field the server named (email, password, token, projectName, ...). */
  fieldErrors: Record<string, string>;
  /** Messages of the server that name no field. */
  issues: string[];
  memberships: MembershipOption[];
  scopes: string[];
  /** The consent step also asks which patient the app is about (a clinician's standalone launch). */
  patientChoice: boolean;
}

const initialState: SignInState = {
  step: 'email',
  email: '',
  busy: false,
  fieldErrors: {},
  issues: [],
  memberships: [],
  scopes: [],
  patientChoice: false,
};

function membershipOption(membership: ProjectMembership): MembershipOption {
  return {
    id: membership.id as string,
    profile: membership.profile?.display ?? membership.profile?.reference ?? 'Unnamed profile',
    project: membership.project?.display ?? membership.project?.reference ?? '',
  };
}

/** The profiles matching the search text (profile or project name), at most 10 (app-spec §2.11). */
export function matchingMemberships(options: MembershipOption[], text: string): MembershipOption[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  return options
    .filter((option) => {
      const haystack = `${option.profile} ${option.project}`.toLowerCase();
      return words.every((word) => haystack.includes(word));
    })
    .slice(0, 10);
}

/**
 * The sign-in sequence: email (or the domain's identity provider) → password → MFA → profile →
 * new project → scope → success, which hands the code to `finish`. Every step's answer says what
 * comes next, so the same machine continues a sign-in that came back from an identity provider.
 */
export function useSignIn(client: FhirClient, options: SignInOptions) {
  const [state, setState] = useState<SignInState>(initialState);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const loginRef = useRef<string | undefined>(undefined);

  const run = useCallback(async (work: () => Promise<void>) => {
    setState((s) => ({ ...s, busy: true, fieldErrors: {}, issues: [] }));
    try {
      await work();
      setState((s) => ({ ...s, busy: false }));
    } catch (error) {
      const sorted = sortSignInError(error);
      if (sorted.toast) optionsRef.current.onToast(sorted.toast);
      setState((s) => ({ ...s, busy: false, fieldErrors: sorted.fields, issues: sorted.issues }));
    }
  }, []);

  /** Moves to the step the server's answer asks for. */
  const advance = useCallback(async (response: LoginResponse) => {
    loginRef.current = response.login;
    setState((s) => ({ ...s, login: response.login }));
    if (response.code) {
      setState((s) => ({ ...s, step: 'success' }));
      await optionsRef.current.finish(response.code);
    } else if (response.mfaRequired) {
      setState((s) => ({ ...s, step: 'mfa' }));
    } else if (response.scopes && response.scopes.length > 0) {
      const scopes = response.scopes;
      const patientChoice = response.patientChoice === true;
      setState((s) => ({ ...s, step: 'scope', scopes, patientChoice }));
    } else if (response.memberships && response.memberships.length > 0) {
      const memberships = response.memberships.map(membershipOption);
      setState((s) => ({ ...s, step: 'profile', memberships }));
    } else {
      // Signed in, but no project yet (a new account): the user creates one.
      setState((s) => ({ ...s, step: 'newProject' }));
    }
  }, []);

  const login = () => loginRef.current as string;
  const thirdParty = () => optionsRef.current.thirdParty;
  const thirdPartyPkce = () => {
    const app = thirdParty();
    return app ? { codeChallenge: app.codeChallenge, codeChallengeMethod: app.codeChallengeMethod } : {};
  };
  /** What the app sent to `/oauth2/authorize`, as the server's sign-in calls take it. */
  const appRequest = (app: ThirdPartyRequest): ContinueSignInRequest => ({
    clientId: app.clientId,
    redirectUri: app.redirectUri,
    scope: app.scope,
    nonce: app.nonce,
    launch: app.launch,
    codeChallenge: app.codeChallenge,
    codeChallengeMethod: app.codeChallengeMethod,
  });

  return {
    state,
    submitEmail: (email: string) =>
      run(async () => {
        const address = requireEmail(email);
        const app = thirdParty();
        const method = await client.getAuthMethod({
          email: address,
          redirectUri: optionsRef.current.returnUrl,
          ...(app
            ? { clientId: app.clientId, clientRedirectUri: app.redirectUri, scope: app.scope, ...thirdPartyPkce() }
            : {}),
        });
        if (method.method === 'external' && method.authorizeUrl) {
          setState((s) => ({ ...s, email: address, busy: true }));
          (optionsRef.current.redirect ?? ((url) => window.location.assign(url)))(method.authorizeUrl);
          // Stay busy: the browser is leaving for the identity provider.
          return new Promise<void>(() => undefined);
        }
        setState((s) => ({ ...s, step: 'password', email: address }));
      }),
    submitPassword: (password: string, remember: boolean) =>
      run(async () => {
        requireValue('password', password, 'Password');
        const app = thirdParty();
        await advance(
          await client.startLogin({
            email: state.email,
            password,
            remember,
            ...(app ? appRequest(app) : {}),
          }),
        );
      }),
    /**
     * On `/oauth`: the app's sign-in as an account already signed in to Hearth EMR here (no
     * password). The active account uses the client's session; another one its own stored token,
     * so the account in use in the app's tabs does not change. `onRefused` hears the status of a
     * refusal (401: that session has ended; 403: it may not continue into this app).
     */
    continueSession: (account: ContinuableAccount, onRefused?: (status: number) => void) =>
      run(async () => {
        const app = thirdParty();
        if (!app) return;
        let response: LoginResponse;
        try {
          response = account.active
            ? await client.continueSignIn(appRequest(app))
            : await client.continueSignInAs(account.login, appRequest(app));
        } catch (error) {
          if (!(error instanceof OperationOutcomeError)) throw error;
          onRefused?.(error.status);
          // The server's 401 says only "Unauthorized"; the person needs to know whose session ended.
          if (error.status === 401) throw issueError(endedSessionMessage(account.name));
          // A 403 is about this account (another project, a session narrowed by scopes): say whose.
          if (error.status === 403) throw refusalOf(account.name, error);
          throw error;
        }
        await advance(response);
      }),
    submitMfa: (token: string) =>
      run(async () => {
        requireValue('token', token, 'MFA code');
        await advance(await client.verifyMfa(login(), token.trim()));
      }),
    chooseProfile: (membershipId: string) =>
      run(async () => advance(await client.chooseProfile(login(), membershipId))),
    createProject: (projectName: string) =>
      run(async () => {
        requireValue('projectName', projectName, 'Project Name');
        await advance(await client.startNewProject({ login: login(), projectName: projectName.trim() }));
      }),
    /** The scopes granted, and the patient chosen when the consent step asks for one. */
    setScope: (scopes: string[], patient?: string) =>
      run(async () => advance(await client.chooseScope(login(), scopes.join(' '), patient))),
    /** The patients the person may choose for the app (consent step of a standalone launch). */
    searchLaunchPatients: (text: string, signal?: AbortSignal) =>
      client.searchLaunchPatients(login(), text, { signal }),
    signInWithGoogle: (googleClientId: string, googleCredential: string) =>
      run(async () => advance(await client.startGoogleLogin({ googleClientId, googleCredential }))),
    /** Back from an identity provider: `code` when done, else `login` to continue (MFA, profile...). */
    resumeExternal: (answer: { login?: string; code?: string; error?: string }) =>
      run(async () => {
        if (answer.error) {
          throw issueError(answer.error);
        }
        if (answer.code) return advance({ login: answer.login ?? '', code: answer.code });
        if (!answer.login) return;
        const status = await client.getLoginStatus(answer.login);
        setState((s) => ({ ...s, email: status.email ?? '' }));
        await advance({
          login: answer.login,
          mfaRequired: status.mfaRequired || undefined,
          memberships: status.memberships,
        });
      }),
    back: () => {
      loginRef.current = undefined;
      setState(() => ({ ...initialState, email: state.email }));
    },
  };
}

export type SignInFlow = ReturnType<typeof useSignIn>;
