import type { AuthProvider, UserIdentity } from 'react-admin';
import type { FhirClient } from '../client';
import { getDisplayString } from '../formatting';
import { choosePhoto } from '../rules';
import { OperationOutcomeError } from '../outcomes';

/**
 * react-admin's authProvider over the FHIR client. The multi-step sign-in itself runs in the
 * sign-in screen (custom-screens/signin), which ends with a processed code; react-admin then only
 * checks that a login is active.
 */
export function createFhirAuthProvider(client: FhirClient): AuthProvider {
  return {
    async login() {
      // Reached only if something calls useLogin(); the sign-in screen drives the steps itself.
      if (!client.isAuthenticated()) throw new Error('Sign in with the sign-in form');
    },
    async checkAuth() {
      // Nothing to sign out of: go straight to the sign-in screen, without a toast.
      if (!client.getActiveLogin()) throw { redirectTo: '/login', logoutUser: false, message: false };
    },
    async checkError(error: unknown) {
      const status =
        (error as { status?: number })?.status ?? (error instanceof OperationOutcomeError ? error.status : undefined);
      if (status === 401) throw new Error('Your session has ended; please sign in again');
      // 403 is a refusal of one call, not the end of the session: the screen shows it.
    },
    async logout() {
      if (client.getActiveLogin()) await client.signOut().catch(() => undefined);
    },
    async getIdentity(): Promise<UserIdentity> {
      const profile = await client.getProfileAsync();
      if (!profile) throw new Error('Not signed in');
      const photo = choosePhoto(profile);
      return { id: `${profile.resourceType}/${profile.id}`, fullName: getDisplayString(profile), avatar: photo?.url };
    },
    async getPermissions() {
      return { superAdmin: client.isSuperAdmin(), projectAdmin: client.isProjectAdmin() };
    },
  };
}
