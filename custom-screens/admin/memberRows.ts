import type {
  AccessPolicy,
  Bundle,
  ContactPoint,
  ProjectMembership,
  Reference,
  Resource,
  User,
} from '@medplum/fhirtypes';
import { adminSeatOf, awaitsAddressOwner } from '../../data-provider/rules';
import { fullAccess, isPatientProfile, ownRecordLabel } from './accessLabels';

/** One row of the Members table: who the member is, how they sign in, what they may do. */
export interface MemberRow {
  id: string;
  /** The profile's display name ("Alice Smith"), never a bare `Practitioner/<uuid>`. */
  profile: string;
  profileReference?: string;
  /** The account's sign-in address; or, when the account is not readable here, the profile's e-mail. */
  email: string;
  /**
   * Where `email` comes from: the account (User) or its display; the profile, because the account
   * belongs to another project (a server administrator's account) and a project admin cannot read
   * it; `hidden` when neither gives an address; `none` for a bot or client application.
   */
  emailSource: 'account' | 'profile' | 'hidden' | 'none';
  /** The policy that applies, by name (a patient without one: the default patient access). */
  accessPolicy: string;
  /** A patient with neither a policy nor access entries: the project's default patient access applies. */
  defaultPatientAccess: boolean;
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

const emailOf = (resource: Resource | undefined): string | undefined =>
  ((resource as { telecom?: ContactPoint[] } | undefined)?.telecom ?? []).find(
    (point) => point.system === 'email' && point.value,
  )?.value;

/**
 * Rows of the memberships of a search bundle (`ProjectMembership?_include=ProjectMembership:user`,
 * `:access-policy` and `:profile`): the e-mail comes from the included User when the caller may
 * read it (a super admin's User lives in the server's own project: then the profile's e-mail, said
 * so), the policy by its display or the included policy's name (the access entries' policies too;
 * a patient with none gets the default patient access, not the whole project), the profile by its
 * display.
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
  const profiles = new Map<string, Resource>(
    entries
      .filter((r) => ['Practitioner', 'Patient', 'RelatedPerson'].includes(r.resourceType))
      .map((profile) => [`${profile.resourceType}/${profile.id}` as string, profile] as const),
  );
  const policyName = (reference: Reference | undefined) =>
    referenceText(reference, (reference?.reference && policies.get(reference.reference)) || 'Unnamed policy');
  return entries
    .filter((r): r is ProjectMembership => r.resourceType === 'ProjectMembership')
    .map((membership): MemberRow => {
      const user = membership.user?.reference ? users.get(membership.user.reference) : undefined;
      const accountEmail =
        user?.email ?? (membership.user?.display?.includes('@') ? membership.user.display : undefined);
      const profileEmail = membership.profile?.reference
        ? emailOf(profiles.get(membership.profile.reference))
        : undefined;
      const person = membership.user?.reference?.startsWith('User/') === true;
      const named = [
        ...(membership.accessPolicy ? [policyName(membership.accessPolicy)] : []),
        ...(membership.access ?? []).map((access) => policyName(access.policy)),
      ];
      const defaultPatientAccess = named.length === 0 && isPatientProfile(membership.profile?.reference);
      return {
        // id, admin, active and user: the seat the last-admin rule reads.
        ...adminSeatOf(membership),
        awaitingOwner: awaitsAddressOwner(membership),
        profile: referenceText(membership.profile, 'Profile not named'),
        profileReference: membership.profile?.reference,
        email: accountEmail ?? (person ? profileEmail : undefined) ?? '',
        emailSource: accountEmail ? 'account' : !person ? 'none' : profileEmail ? 'profile' : 'hidden',
        accessPolicy: named.length > 0 ? named.join(', ') : defaultPatientAccess ? ownRecordLabel : fullAccess.label,
        defaultPatientAccess,
      };
    })
    .sort((a, b) => a.profile.localeCompare(b.profile));
}
