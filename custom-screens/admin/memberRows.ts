import type { AccessPolicy, Bundle, ProjectMembership, Reference, Resource, User } from '@medplum/fhirtypes';
import { adminSeatOf, awaitsAddressOwner } from '../../data-provider/rules';

/** One row of the Members table: who the member is, how they sign in, what they may do. */
export interface MemberRow {
  id: string;
  /** The profile's display name ("Alice Smith"), never a bare `Practitioner/<uuid>`. */
  profile: string;
  profileReference?: string;
  email: string;
  accessPolicy: string;
  admin: boolean;
  active: boolean;
  /** Invited, but waiting for the owner of the address to prove it (data-provider/rules/membershipAwaitingOwner.ts). */
  awaitingOwner: boolean;
  /** `User/…`, `Bot/…` or `ClientApplication/…`: only people count as admins who can sign in. */
  user?: string;
}

function referenceText(reference: Reference | undefined, fallback: string): string {
  return reference?.display?.trim() || fallback;
}

/**
 * Rows of the memberships of a search bundle (`ProjectMembership?_include=ProjectMembership:user`
 * and `:access-policy`): the e-mail comes from the included User when the caller may read it, the
 * policy by its display or the included policy's name, the profile by its display.
 */
export function memberRows(bundle: Bundle | undefined): MemberRow[] {
  const entries = (bundle?.entry ?? []).map((entry) => entry.resource).filter((r): r is Resource => !!r);
  const users = new Map(
    entries
      .filter((r): r is User => r.resourceType === 'User')
      .map((user) => [`User/${user.id}` as string, user] as const),
  );
  const policies = new Map(
    entries
      .filter((r): r is AccessPolicy => r.resourceType === 'AccessPolicy')
      .map((policy) => [`AccessPolicy/${policy.id}` as string, policy.name] as const),
  );
  return entries
    .filter((r): r is ProjectMembership => r.resourceType === 'ProjectMembership')
    .map((membership) => {
      const user = membership.user?.reference ? users.get(membership.user.reference) : undefined;
      return {
        // id, admin, active and user: the seat the last-admin rule reads.
        ...adminSeatOf(membership),
        awaitingOwner: awaitsAddressOwner(membership),
        profile: referenceText(membership.profile, 'Profile not named'),
        profileReference: membership.profile?.reference,
        email: user?.email ?? (membership.user?.display?.includes('@') ? membership.user.display : '') ?? '',
        accessPolicy: referenceText(
          membership.accessPolicy,
          (membership.accessPolicy?.reference && policies.get(membership.accessPolicy.reference)) ||
            (membership.accessPolicy?.reference ? 'Unnamed policy' : 'None (full access)'),
        ),
      };
    })
    .sort((a, b) => a.profile.localeCompare(b.profile));
}
