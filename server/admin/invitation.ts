import type {
  ContactPoint,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  Reference,
  RelatedPerson,
  User,
  UserSecurityRequest,
} from '@medplum/fhirtypes';
import { formatHumanName } from '../../data-provider/formatting';
import { findUserByEmail, membershipsOf, readProject } from '../auth/accountStore';
import { addressVerified, waitingMembershipsOf } from '../auth/addressOwnership';
import { awaitingOwnerExtension, awaitingOwnerMessage } from '../auth/membershipState';
import { accountsProjectId } from '../auth/authEnvironment';
import { hashSecret, newSecret } from '../auth/loginService';
import { errors, FhirError, outcomeOf } from '../fhir/fhirError';
import type { RepositorySession, RequestContext } from '../fhir/repository';
import type { OutgoingEmail } from '../email/emailSender';
import type { InviteProfileType, InviteRequest } from './inviteInput';
import { checkProfileUnclaimed } from './profileHolder';
import { checkAccessReferences, checkProjectReference, readProjectReference } from './projectReferences';

type Profile = Practitioner | Patient | RelatedPerson;

export interface InvitationResult {
  membership: ProjectMembership;
  /** What to e-mail once the transaction has committed (undefined with sendEmail: false). */
  email?: OutgoingEmail;
}

/**
 * Adds a person to a project: reuses the User with this e-mail or creates one, creates their
 * profile (Practitioner, Patient or RelatedPerson) and the ProjectMembership, and prepares the
 * invitation e-mail (a set-password link for a user without a password). Runs as the server, after
 * the route has checked that the caller administers the project. A person who is already a member
 * (or already invited and waiting) is refused with 409: an invitation never changes an existing
 * membership.
 *
 * With `membership.profile` (Medplum's name) the membership is made for that existing profile
 * instead of a new one: a patient registered or imported earlier gets a portal onto her own chart,
 * not a second, empty one. It must be a resource of this project of the invited type (400 on
 * `membership.profile` otherwise, the same answer whether it is absent, deleted or another
 * project's) that no membership of this project has as its profile yet (409). The chart's name is
 * kept (the form's names only name a new User); the invited address is added to the chart's
 * telecom when the chart does not list it yet, and nothing else of the chart changes.
 *
 * Account pre-hijacking: a new account is unverified, whoever chose its password (the inviter may
 * set their staff's passwords; that counts in this project only). An existing account whose
 * address nobody has proved gets a membership that waits for the address owner: inactive, marked
 * with `membership-awaiting-address-owner`, and usable once the owner completes the set-password
 * link this invitation e-mails (which replaces the password and ends the account's sessions; a
 * "Forgot password" link does the same). An existing verified account is added at once.
 */
export async function invite(
  session: RepositorySession,
  projectId: string,
  request: InviteRequest,
  inviter: Reference,
  baseUrl: string,
  passwordHash?: string,
): Promise<InvitationResult> {
  const project = await readProject(session, { reference: `Project/${projectId}` });
  if (!project) throw errors.notFoundWith('Project not found');
  const ctx = { projectId, author: inviter };
  // An admin binds only this project's policies, parameters, configuration and patient (checked
  // here because this session writes as the server).
  await checkProjectReference(session, projectId, request.accessPolicy, undefined, ['AccessPolicy'], 'accessPolicy');
  await checkAccessReferences(session, projectId, request.membership.access, undefined, 'membership.access');
  await checkProjectReference(
    session,
    projectId,
    request.membership.userConfiguration,
    undefined,
    ['UserConfiguration'],
    'membership.userConfiguration',
  );
  await checkProjectReference(session, projectId, request.patient, undefined, ['Patient'], 'patient');
  const existingProfile = request.profile
    ? await linkableProfile(session, projectId, request.resourceType, request.profile)
    : undefined;

  let user = await findUserByEmail(session, request.email);
  const newUser = !user;
  if (!user) {
    user = (await session.create({ projectId: accountsProjectId, author: inviter }, {
      resourceType: 'User',
      firstName: request.firstName,
      lastName: request.lastName,
      email: request.email,
      // Proved only when the person completes a link e-mailed to the address; a password the
      // inviter chose proves nothing (addressOwnership.ts).
      emailVerified: false,
      ...(passwordHash ? { passwordHash } : {}),
    } as User)) as User;
  } else {
    const userRef = { reference: `User/${user.id}` };
    const waiting = await waitingMembershipsOf(session, userRef, projectId);
    if (waiting.length > 0 || (await membershipsOf(session, userRef, projectId)).length > 0) {
      throw new FhirError(
        409,
        outcomeOf([
          {
            severity: 'error',
            code: 'duplicate',
            details: {
              text:
                waiting.length > 0
                  ? `${request.email} is already invited to this project; ${lowerFirst(awaitingOwnerMessage)} (or through "Forgot password")`
                  : `${request.email} is already a member of this project`,
            },
            expression: ['email'],
          },
        ]),
      );
    }
  }
  // An existing account whose address nobody proved: whoever knows its password may have registered
  // someone else's address in advance (account pre-hijacking). The membership is made, but waits for
  // the address owner to choose a password from the link e-mailed below (membershipState.ts).
  const awaitOwner = !newUser && !(await addressVerified(session, user));

  const profile = existingProfile
    ? await withInvitedAddress(session, ctx, existingProfile, request.email)
    : ((await session.create(ctx, newProfile(request))) as Profile);
  // The link for the address owner, made before the membership that names it. Without the e-mail
  // (sendEmail: false) the owner still gets there through "Forgot password" (any completed link counts).
  const ownerLink =
    request.sendEmail && (awaitOwner || (newUser && !passwordHash))
      ? await setPasswordLink(session, user, baseUrl)
      : undefined;
  const membership = (await session.create(ctx, {
    ...request.membership,
    ...(awaitOwner
      ? {
          active: false,
          extension: [
            awaitingOwnerExtension(
              ownerLink ? { reference: `UserSecurityRequest/${ownerLink.requestId}` } : undefined,
              request.membership.active !== false,
            ),
          ],
        }
      : {}),
    resourceType: 'ProjectMembership',
    project: { reference: `Project/${projectId}`, display: project.name },
    user: { reference: `User/${user.id}`, display: request.email },
    profile: {
      reference: `${request.resourceType}/${profile.id}`,
      display: formatHumanName(profile.name?.[0]) || `${request.firstName} ${request.lastName}`,
    },
    ...(request.accessPolicy ? { accessPolicy: request.accessPolicy } : {}),
    ...(request.admin ? { admin: true } : {}),
  } as ProjectMembership)) as ProjectMembership;

  if (!request.sendEmail) return { membership };
  const email = awaitOwner
    ? awaitingOwnerEmail(user, project, baseUrl, ownerLink?.url as string)
    : ownerLink
      ? setPasswordEmail(user, project, baseUrl, ownerLink.url)
      : addedEmail(user, project, baseUrl);
  return { membership, email };
}

function newProfile(request: InviteRequest): Profile {
  const name = [{ given: [request.firstName], family: request.lastName }];
  const telecom = [{ system: 'email' as const, value: request.email }];
  return request.resourceType === 'RelatedPerson'
    ? ({ resourceType: 'RelatedPerson', name, telecom, patient: request.patient } as RelatedPerson)
    : ({ resourceType: request.resourceType, name, telecom } as Practitioner | Patient);
}

/**
 * The existing profile an invitation links: one of this project's, of the invited type, that no
 * membership of this project has yet (a second one would let two accounts act as the same
 * person). The transaction lock keeps two invitations of the same chart from both passing.
 */
async function linkableProfile(
  session: RepositorySession,
  projectId: string,
  resourceType: InviteProfileType,
  reference: Reference,
): Promise<Profile> {
  const profile = (await readProjectReference(
    session,
    projectId,
    reference,
    [resourceType],
    'membership.profile',
  )) as Profile;
  await checkProfileUnclaimed(session, projectId, `${resourceType}/${profile.id}`, 'membership.profile');
  return profile;
}

/** The profile with the invited address in its telecom: added when missing, nothing else changed. */
async function withInvitedAddress(
  session: RepositorySession,
  ctx: RequestContext,
  profile: Profile,
  email: string,
): Promise<Profile> {
  const listed = (profile.telecom ?? []).some(
    (point) => point.system === 'email' && point.value?.trim().toLowerCase() === email,
  );
  if (listed) return profile;
  const telecom: ContactPoint[] = [...(profile.telecom ?? []), { system: 'email', value: email }];
  return (await session.update(ctx, { ...profile, telecom })).resource as Profile;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** A one-time set-password link for the user (24 hours, `/auth/setpassword`). */
async function setPasswordLink(
  session: RepositorySession,
  user: User,
  baseUrl: string,
): Promise<{ url: string; requestId: string }> {
  const secret = newSecret();
  const securityRequest = (await session.create(
    { projectId: accountsProjectId, author: { reference: `User/${user.id}` } },
    {
      resourceType: 'UserSecurityRequest',
      type: 'invite',
      user: { reference: `User/${user.id}` },
      secret: hashSecret(secret),
    } as UserSecurityRequest,
  )) as UserSecurityRequest;
  return { url: `${baseUrl}setpassword/${securityRequest.id}/${secret}`, requestId: securityRequest.id as string };
}

function setPasswordEmail(user: User, project: Project, baseUrl: string, link: string): OutgoingEmail {
  return {
    to: user.email as string,
    subject: `You are invited to ${project.name ?? 'a project'} on Hearth EMR`,
    text: `Hello ${user.firstName ?? ''},\n\nYou have been invited to ${project.name ?? 'a project'} on Hearth EMR.\n\nTo choose your password, open:\n${link}\n\nThe link works once, for 24 hours. Then sign in at ${baseUrl}`,
  };
}

/** To the address of an existing account nobody has proved: the invitation opens once its owner answers. */
function awaitingOwnerEmail(user: User, project: Project, baseUrl: string, link: string): OutgoingEmail {
  const name = project.name ?? 'a project';
  return {
    to: user.email as string,
    subject: `You are invited to ${name} on Hearth EMR`,
    text:
      `Hello ${user.firstName ?? ''},\n\nYou have been invited to ${name} on Hearth EMR.\n\n` +
      `A Hearth EMR account already uses this address, but its owner has not confirmed it yet. To accept the invitation, choose a password at:\n${link}\n\n` +
      `This confirms that the address is yours: the password you choose replaces the account's current one, and every session of the account is signed out. ` +
      `The link works once, for 24 hours; after that, use "Forgot password" on the sign-in page at ${baseUrl}\n\n` +
      `If you did not expect this, you can ignore this message: nobody gets into ${name} with this account until the password is chosen from this link.`,
  };
}

function addedEmail(user: User, project: Project, baseUrl: string): OutgoingEmail {
  return {
    to: user.email as string,
    subject: `You were added to ${project.name ?? 'a project'} on Hearth EMR`,
    text: `Hello ${user.firstName ?? ''},\n\nYou now have access to ${project.name ?? 'a project'} on Hearth EMR. Sign in with your existing account at ${baseUrl}`,
  };
}
