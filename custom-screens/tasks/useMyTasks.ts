import { useQuery } from '@tanstack/react-query';
import type { Bundle, CodeableConcept, Patient, PractitionerRole, Task } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { OPEN_TASK_STATUSES } from './myTaskRules';

export interface MyTasks {
  mine: Task[];
  unassigned: Task[];
  roles: CodeableConcept[];
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
        profileReference?.startsWith('Practitioner/')
          ? client.searchResources('PractitionerRole', { practitioner: profileReference, _count: '50' }, options)
          : Promise.resolve([] as PractitionerRole[]),
      ]);
      const a = split(mine);
      const b = split(unassigned);
      return {
        mine: a.tasks,
        unassigned: b.tasks,
        roles: roles.flatMap((role) => role.code ?? []),
        patients: new Map([...a.patients, ...b.patients]),
      };
    },
    enabled: !!profileReference,
    retry: false,
  });
}
