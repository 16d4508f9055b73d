import type {
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  Reference,
  RelatedPerson,
  User,
  UserSecurityRequest,
} from '@medplum/fhirtypes';
import { findUserByEmail, membershipsOf, readProject } from '../auth/accountStore';
import { addressVerified, waitingMembershipsOf } from '../auth/addressOwnership';
import { awaitingOwnerExtension, awaitingOwnerMessage } from '../auth/membershipState';
import { accountsProjectId } from '../auth/authEnvironment';
import { hashSecret, newSecret } from '../auth/loginService';
import { errors, FhirError, outcomeOf } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import type { OutgoingEmail } from '../email/emailSender';
import type { InviteRequest } from './inviteInput';
import { checkAccessReferences, checkProjectReference } from './projectReferences';

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

  const name = [{ given: [request.firstName], family: request.lastName }];
  const telecom = [{ system: 'email' as const, value: request.email }];
  const profileBody =
    request.resourceType === 'RelatedPerson'
      ? ({ resourceType: 'RelatedPerson', name, telecom, patient: request.patient } as RelatedPerson)
      : ({ resourceType: request.resourceType, name, telecom } as Practitioner | Patient);
  const profile = await session.create(ctx, profileBody);
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
      display: `${request.firstName} ${request.lastName}`,
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
