import { useQuery } from '@tanstack/react-query';
import type { Bundle, CodeableConcept, Patient, PractitionerRole, Task } from '@medplum/fhirtypes';
import { canReadResourceType } from '../../data-provider/access';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { OPEN_TASK_STATUSES } from './myTaskRules';

export interface MyTasks {
  mine: Task[];
  unassigned: Task[];
  roles: CodeableConcept[];
  /** False when the caller's policy does not grant PractitionerRole: no roles were asked, none is known. */
  rolesReadable: boolean;
  patients: Map<string, Patient>;
}

const OPEN = OPEN_TASK_STATUSES.join(',');

function split(bundle: Bundle): { tasks: Task[]; patients: Map<string, Patient> } {
  const tasks: Task[] = [];
  const patients = new Map<string, Patient>();
  for (const entry of bundle.entry ?? []) {
    const resource = entry.resource;
    if (resource?.resourceType === 'Task') tasks.push(resource);
    if (resource?.resourceType === 'Patient') patients.set(`Patient/${resource.id}`, resource);
  }
  return { tasks, patients };
}

/** The signed-in practitioner's open tasks, the unassigned open ones, and their PractitionerRole codes. */
export function useMyTasks(profileReference: string | undefined) {
  const client = useFhirClient();
  return useQuery<MyTasks, Error>({
    queryKey: ['hearth-my-tasks', profileReference],
    queryFn: async ({ signal }) => {
      const options = { signal, cache: 'no-cache' as const };
      // A member whose policy does not grant PractitionerRole (the demo's front desk) has no roles to
      // match: asking would fail the whole page with a 403 instead of showing their tasks.
      const mayReadRoles = client.isSuperAdmin() || canReadResourceType(client.getAccessPolicy(), 'PractitionerRole');
      const [mine, unassigned, roles] = await Promise.all([
        client.search(
          'Task',
          {
            owner: profileReference as string,
            status: OPEN,
            _include: 'Task:patient',
            _count: '100',
            _sort: '-_lastUpdated',
          },
          options,
        ),
        client.search(
          'Task',
          { 'owner:missing': 'true', status: OPEN, _include: 'Task:patient', _count: '100', _sort: '-_lastUpdated' },
          options,
        ),
        mayReadRoles && profileReference?.startsWith('Practitioner/')
          ? client.searchResources('PractitionerRole', { practitioner: profileReference, _count: '50' }, options)
          : Promise.resolve([] as PractitionerRole[]),
      ]);
      const a = split(mine);
      const b = split(unassigned);
      return {
        mine: a.tasks,
        unassigned: b.tasks,
        roles: roles.flatMap((role) => role.code ?? []),
        rolesReadable: mayReadRoles,
        patients: new Map([...a.patients, ...b.patients]),
      };
    },
    enabled: !!profileReference,
    retry: false,
  });
}
