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
 * is refused with 409: an invitation never changes an existing membership.
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
      ...(passwordHash ? { passwordHash } : {}),
    } as User)) as User;
  } else if ((await membershipsOf(session, { reference: `User/${user.id}` }, projectId)).length > 0) {
    throw new FhirError(
      409,
      outcomeOf([
        {
          severity: 'error',
          code: 'duplicate',
          details: { text: `${request.email} is already a member of this project` },
          expression: ['email'],
        },
      ]),
    );
  }

  const name = [{ given: [request.firstName], family: request.lastName }];
  const telecom = [{ system: 'email' as const, value: request.email }];
  const profileBody =
    request.resourceType === 'RelatedPerson'
      ? ({ resourceType: 'RelatedPerson', name, telecom, patient: request.patient } as RelatedPerson)
      : ({ resourceType: request.resourceType, name, telecom } as Practitioner | Patient);
  const profile = await session.create(ctx, profileBody);
  const membership = (await session.create(ctx, {
    ...request.membership,
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
  const email =
    newUser && !passwordHash
      ? await setPasswordEmail(session, user, project, baseUrl)
      : addedEmail(user, project, baseUrl);
  return { membership, email };
}

async function setPasswordEmail(
  session: RepositorySession,
  user: User,
  project: Project,
  baseUrl: string,
): Promise<OutgoingEmail> {
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
  const link = `${baseUrl}setpassword/${securityRequest.id}/${secret}`;
  return {
    to: user.email as string,
    subject: `You are invited to ${project.name ?? 'a project'} on Hearth EMR`,
    text: `Hello ${user.firstName ?? ''},\n\nYou have been invited to ${project.name ?? 'a project'} on Hearth EMR.\n\nTo choose your password, open:\n${link}\n\nThe link works once, for 24 hours. Then sign in at ${baseUrl}`,
  };
}

function addedEmail(user: User, project: Project, baseUrl: string): OutgoingEmail {
  return {
    to: user.email as string,
    subject: `You were added to ${project.name ?? 'a project'} on Hearth EMR`,
    text: `Hello ${user.firstName ?? ''},\n\nYou now have access to ${project.name ?? 'a project'} on Hearth EMR. Sign in with your existing account at ${baseUrl}`,
  };
}
