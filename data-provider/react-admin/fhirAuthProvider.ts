import type { AuthProvider, UserIdentity } from 'react-admin';
import type { ProjectMembership } from '@medplum/fhirtypes';
import type { AccessPolicy } from '@medplum/fhirtypes';
import type { FhirClient, LoginResponse } from '../client';
import { getDisplayString } from '../formatting';
import { choosePhoto, imageSource } from '../rules';
import { OperationOutcomeError } from '../outcomes';
import { canAccessResource } from './raAccess';

/** What `useLogin()` may be called with: the first step, or the answer to the step the server asked for. */
export type FhirLoginParams =
  | { email: string; password: string; remember?: boolean; projectId?: string }
  | { login: string; mfaCode: string }
  | { login: string; profile: string }
  | { login: string; scope: string }
  /** A code already obtained (a redirect, a registration); `state` when this client started the redirect. */
  | { code: string; state?: string; redirectUri?: string };

export type SignInStep = 'mfa' | 'profile' | 'scope';

/**
 * The server needs one more answer before it gives a code: a second factor, a choice of profile
 * (membership), or a scope confirmation. Call login again with `{ login, mfaCode | profile | scope }`.
 */
export class SignInStepRequired extends Error {
  constructor(
    readonly step: SignInStep,
    readonly login: string,
    readonly memberships: ProjectMembership[] = [],
    readonly scopes: string[] = [],
  ) {
    super(
      step === 'mfa'
        ? 'Enter the code from your authenticator app'
        : step === 'profile'
          ? 'Choose the profile to sign in with'
          : 'Confirm what this sign-in may access',
    );
    this.name = 'SignInStepRequired';
  }
}

export interface FhirPermissions {
  superAdmin: boolean;
  projectAdmin: boolean;
  accessPolicy: AccessPolicy | undefined;
}

export interface FhirAuthProviderOptions {
  /** Where signed-out users are sent. Default `/signin`. */
  signInPath?: string;
  /** Where handleCallback sends the user once the code is exchanged. Default `/`. */
  afterSignInPath?: string;
  /** The address the callback arrived at; the browser's by default (tests pass their own). */
  currentLocation?: () => { search: string; origin: string; pathname: string };
}

const endedSession = 'Your session has ended; please sign in again';

function statusOf(error: unknown): number | undefined {
  if (error instanceof OperationOutcomeError) return error.status;
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * react-admin's authProvider over the FHIR client: sign-in steps through `useLogin`, session
 * checks, identity, permissions and `canAccess` by the same access-policy rules the server
 * enforces, and the `?code=` callback of sign-in by redirect.
 */
export function createFhirAuthProvider(client: FhirClient, options: FhirAuthProviderOptions = {}): AuthProvider {
  const signInPath = options.signInPath ?? '/signin';
  const afterSignInPath = options.afterSignInPath ?? '/';
  const currentLocation = options.currentLocation ?? (() => window.location);

  /** Follows a sign-in step's answer: a code finishes the sign-in; anything else asks for the next step. */
  const finishStep = async (answer: LoginResponse & { scopes?: string[] }): Promise<void> => {
    if (answer.code) {
      await client.processCode(answer.code);
      return;
    }
    if (answer.mfaRequired) throw new SignInStepRequired('mfa', answer.login);
    if (answer.memberships?.length) throw new SignInStepRequired('profile', answer.login, answer.memberships);
    if (answer.scopes?.length) throw new SignInStepRequired('scope', answer.login, [], answer.scopes);
    throw new Error('The server answered the sign-in without a code or a next step');
  };

  const sessionLoaded = async (): Promise<boolean> => {
    if (!client.getActiveLogin()) return false;
    return (await client.getProfileAsync()) !== undefined;
  };

  return {
    async login(params: FhirLoginParams) {
      if ('code' in params) {
        await client.processCode(params.code, { state: params.state, redirectUri: params.redirectUri });
      } else if ('email' in params) {
        await finishStep(
          await client.startLogin({
            email: params.email,
            password: params.password,
            remember: params.remember,
            projectId: params.projectId,
          }),
        );
      } else if ('mfaCode' in params) {
        await finishStep(await client.verifyMfa(params.login, params.mfaCode));
      } else if ('profile' in params) {
        await finishStep(await client.chooseProfile(params.login, params.profile));
      } else if ('scope' in params) {
        await finishStep(await client.chooseScope(params.login, params.scope));
      } else {
        throw new Error('Sign in with an e-mail and a password');
      }
    },

    async checkAuth() {
      // Nothing to sign out of: straight to the sign-in route, without a toast.
      if (!client.getActiveLogin()) throw { redirectTo: signInPath, logoutUser: false, message: false };
    },

    /**
     * A 401 reaching a screen means the client's one refresh has already failed (or there was no
     * session): the session is over. A 403 refuses one call, not the session — the screen shows it.
     */
    async checkError(error: unknown) {
      if (statusOf(error) !== 401) return;
      client.clearActiveLogin();
      throw { redirectTo: signInPath, logoutUser: true, message: endedSession };
    },

    async logout() {
      if (client.getActiveLogin()) await client.signOut();
      return signInPath;
    },

    async getIdentity(): Promise<UserIdentity> {
      const profile = await client.getProfileAsync();
      if (!profile) throw new Error('Not signed in');
      const avatar = imageSource(choosePhoto(profile), (address) => client.fileAddress(address));
      return {
        id: `${profile.resourceType}/${profile.id}`,
        fullName: getDisplayString(profile),
        ...(avatar ? { avatar } : {}),
      };
    },

    async getPermissions(): Promise<FhirPermissions> {
      await sessionLoaded();
      return {
        superAdmin: client.isSuperAdmin(),
        projectAdmin: client.isProjectAdmin(),
        accessPolicy: client.getAccessPolicy(),
      };
    },

    async canAccess({ resource, action }: { resource: string; action: string }) {
      if (!(await sessionLoaded())) return false;
      return canAccessResource(
        { superAdmin: client.isSuperAdmin(), accessPolicy: client.getAccessPolicy() },
        resource,
        action,
      );
    },

    /** The return from sign-in by redirect (an external identity provider, or our own authorize page). */
    async handleCallback() {
      const location = currentLocation();
      const query = new URLSearchParams(location.search);
      const failure = query.get('error');
      if (failure) throw new Error(query.get('error_description') ?? failure);
      const code = query.get('code');
      if (!code) throw new Error('The sign-in answer has no code; please sign in again');
      const state = query.get('state');
      // Our own authorize redirect carries the state this client kept; the server's external
      // sign-in hands back a code alone.
      await client.processCode(
        code,
        state === null ? {} : { state, redirectUri: `${location.origin}${location.pathname}` },
      );
      return { redirectTo: afterSignInPath };
    },
  };
}
