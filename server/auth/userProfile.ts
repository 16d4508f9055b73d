import type { Patient, Practitioner, Project, ProjectMembership, User } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { systemAuthor } from '../definitions/loadDefinitions';

/**
 * A registered user's first profile in a project (a Practitioner for a new project's owner, a
 * Patient for self-registration) and the membership that ties them, named after the user.
 */
export async function createUserProfile(
  session: RepositorySession,
  user: User,
  project: Project,
  profileType: 'Practitioner' | 'Patient',
  membership: Partial<ProjectMembership> = {},
): Promise<ProjectMembership> {
  const ctx = { projectId: project.id as string, author: systemAuthor };
  const profile = (await session.create(ctx, {
    resourceType: profileType,
    name: [{ given: [user.firstName as string], family: user.lastName }],
    telecom: user.email
      ? [{ system: 'email', use: profileType === 'Patient' ? 'home' : 'work', value: user.email }]
      : undefined,
  } as Practitioner | Patient)) as Practitioner | Patient;
  return (await session.create(ctx, {
    resourceType: 'ProjectMembership',
    project: { reference: `Project/${project.id}`, display: project.name },
    user: { reference: `User/${user.id}`, display: user.email },
    profile: { reference: `${profileType}/${profile.id}`, display: `${user.firstName} ${user.lastName}` },
    ...membership,
  } as ProjectMembership)) as ProjectMembership;
}
