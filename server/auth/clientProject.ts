import type { Login } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { readClient, readProject } from './accountStore';

/**
 * The project a sign-in through a ClientApplication is confined to: the one that owns the client.
 * A project's admin registers its apps, so an app of project B must never receive a token for the
 * user's profile in project A ("nothing one project saves acts in another"). Apps owned by a super
 * admin's project serve the whole server and are not confined. Undefined when the login names no
 * client.
 */
export async function clientProjectScope(session: RepositorySession, login: Login): Promise<string | undefined> {
  const clientId = login.client?.reference?.split('/')[1];
  if (!clientId) return undefined;
  const client = await readClient(session, clientId);
  if (!client) throw errors.invalid('Client not found', 'clientId');
  const projectId = client.meta?.project;
  if (!projectId) return undefined;
  const project = await readProject(session, { reference: `Project/${projectId}` });
  return project?.superAdmin ? undefined : projectId;
}

export const outsideClientProject = 'This application belongs to a project you are not a member of';
