import type {
  AccessPolicy,
  Bot,
  ClientApplication,
  OperationOutcome,
  Patient,
  Project,
  ProjectMembership,
  ProjectSetting,
  ProjectSite,
} from '@medplum/fhirtypes';
import type { FhirClient, InviteRequest } from '../../data-provider/client';

/** How the server sends e-mail: through SMTP, or into its outbox folder where nobody reads it. */
export type EmailDelivery = 'smtp' | 'outbox';

export interface ProjectAdminDetail {
  email: { delivery: EmailDelivery };
}

const adminUrl = (client: FhirClient, projectId: string, ...rest: string[]) =>
  new URL(
    ['admin/projects', encodeURIComponent(projectId), ...rest.map(encodeURIComponent)].join('/'),
    client.getBaseUrl(),
  );

const json = 'application/json';
const fresh = { cache: 'no-cache' } as const;

/**
 * The calls of the admin screen (server: server/admin/): Medplum's `/admin/projects/{id}/…`
 * routes, and FHIR reads of what an admin may see in full (the Project with its secret values,
 * ClientApplications with theirs). Every call is refused by the server to anyone but the
 * project's admins.
 */
export const projectAdminApi = {
  detail(client: FhirClient, projectId: string): Promise<ProjectAdminDetail> {
    return client.get<ProjectAdminDetail>(adminUrl(client, projectId), fresh);
  },
  project(client: FhirClient, projectId: string): Promise<Project> {
    return client.readResource('Project', projectId, fresh) as Promise<Project>;
  },
  async clients(client: FhirClient): Promise<ClientApplication[]> {
    return (await client.searchResources('ClientApplication', '_count=200&_sort=name', fresh)) as ClientApplication[];
  },
  async bots(client: FhirClient): Promise<Bot[]> {
    return (await client.searchResources('Bot', '_count=200&_sort=name', fresh)) as Bot[];
  },
  async accessPolicies(client: FhirClient): Promise<AccessPolicy[]> {
    return (await client.searchResources('AccessPolicy', '_count=200&_sort=name', fresh)) as AccessPolicy[];
  },
  /** The chart a patient is invited onto: its name and e-mail fill the invitation's empty fields. */
  patient(client: FhirClient, patientId: string): Promise<Patient> {
    return client.readResource('Patient', patientId) as Promise<Patient>;
  },
  member(client: FhirClient, projectId: string, membershipId: string): Promise<ProjectMembership> {
    return client.get<ProjectMembership>(adminUrl(client, projectId, 'members', membershipId), fresh);
  },
  saveMember(client: FhirClient, projectId: string, membership: ProjectMembership): Promise<ProjectMembership> {
    return client.post<ProjectMembership>(
      adminUrl(client, projectId, 'members', membership.id as string),
      membership,
      'application/fhir+json',
    );
  },
  removeMember(client: FhirClient, projectId: string, membershipId: string): Promise<OperationOutcome> {
    return client.delete<OperationOutcome>(adminUrl(client, projectId, 'members', membershipId));
  },
  invite(client: FhirClient, projectId: string, request: InviteRequest): Promise<ProjectMembership> {
    return client.invite(projectId, request);
  },
  saveSecrets(client: FhirClient, projectId: string, secrets: ProjectSetting[]): Promise<Project> {
    return client.post<Project>(adminUrl(client, projectId, 'secrets'), secrets, json);
  },
  saveSites(client: FhirClient, projectId: string, sites: ProjectSite[]): Promise<Project> {
    return client.post<Project>(adminUrl(client, projectId, 'sites'), sites, json);
  },
  createClient(
    client: FhirClient,
    projectId: string,
    input: { name: string; description?: string; redirectUri?: string; launchUri?: string },
  ): Promise<ClientApplication> {
    return client.post<ClientApplication>(adminUrl(client, projectId, 'client'), input, json);
  },
  createBot(client: FhirClient, projectId: string, input: { name: string; description?: string }): Promise<Bot> {
    return client.post<Bot>(adminUrl(client, projectId, 'bot'), input, json);
  },
  deployBot(client: FhirClient, botId: string, code: string): Promise<OperationOutcome> {
    // Medplum's body: the code as it will run (`exports.handler = …`).
    return client.post<OperationOutcome>(client.fhirUrl('Bot', botId, '$deploy'), { code }, json);
  },
  runBot(client: FhirClient, botId: string, input: unknown, contentType: string): Promise<unknown> {
    return client.executeBot(botId, input, contentType);
  },
};
