import { useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectMembership, ProjectSetting, ProjectSite } from '@medplum/fhirtypes';
import type { InviteRequest } from '../../data-provider/client';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { projectAdminApi } from './projectAdminApi';

/** Every query of the admin screen starts with this key, so a change refreshes them all. */
const adminKey = 'hearth-admin';

function useProjectId(): string {
  return useFhirClient().getProject()?.id ?? '';
}

function useAdminQuery<T>(name: string, read: (projectId: string) => Promise<T>) {
  const projectId = useProjectId();
  return useQuery<T, Error>({
    queryKey: [adminKey, name, projectId],
    queryFn: () => read(projectId),
    enabled: projectId !== '',
    retry: false,
  });
}

/** The Project as its admin reads it (secret values and sites included). */
export function useProjectRecord() {
  const client = useFhirClient();
  return useAdminQuery('project', (projectId) => projectAdminApi.project(client, projectId));
}

/** `GET /admin/projects/{id}`: whether invitations reach anybody (SMTP) or stay in the outbox. */
export function useEmailDelivery() {
  const client = useFhirClient();
  return useAdminQuery('detail', (projectId) => projectAdminApi.detail(client, projectId));
}

export function useClientApplications() {
  const client = useFhirClient();
  return useAdminQuery('clients', () => projectAdminApi.clients(client));
}

export function useBots() {
  const client = useFhirClient();
  return useAdminQuery('bots', () => projectAdminApi.bots(client));
}

export function useAccessPolicies() {
  const client = useFhirClient();
  return useAdminQuery('policies', () => projectAdminApi.accessPolicies(client));
}

/**
 * The writes of the admin screen, bound to the active project; each refreshes what it changed
 * (the members list has its own key). Failures reach the caller, which keeps the form as typed.
 */
export function useProjectAdminActions() {
  const client = useFhirClient();
  const queries = useQueryClient();
  const projectId = useProjectId();
  return useMemo(() => {
    const refresh = async () => {
      await queries.invalidateQueries({ queryKey: [adminKey] });
      await queries.invalidateQueries({ queryKey: ['hearth-admin-members'] });
    };
    const then =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        const result = await call(...args);
        await refresh();
        return result;
      };
    return {
      projectId,
      readPatient: (patientId: string) => projectAdminApi.patient(client, patientId),
      readMember: (membershipId: string) => projectAdminApi.member(client, projectId, membershipId),
      saveMember: then((membership: ProjectMembership) => projectAdminApi.saveMember(client, projectId, membership)),
      removeMember: then((membershipId: string) => projectAdminApi.removeMember(client, projectId, membershipId)),
      invite: then((request: InviteRequest) => projectAdminApi.invite(client, projectId, request)),
      saveSecrets: then((secrets: ProjectSetting[]) => projectAdminApi.saveSecrets(client, projectId, secrets)),
      saveSites: then((sites: ProjectSite[]) => projectAdminApi.saveSites(client, projectId, sites)),
      createClient: then((input: { name: string; description?: string; redirectUri?: string; launchUri?: string }) =>
        projectAdminApi.createClient(client, projectId, input),
      ),
      createBot: then((input: { name: string; description?: string }) =>
        projectAdminApi.createBot(client, projectId, input),
      ),
      deployBot: then((botId: string, code: string) => projectAdminApi.deployBot(client, botId, code)),
      runBot: (botId: string, input: unknown, contentType: string) =>
        projectAdminApi.runBot(client, botId, input, contentType),
    };
  }, [client, queries, projectId]);
}
