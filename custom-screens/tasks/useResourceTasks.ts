import { useQuery } from '@tanstack/react-query';
import type { Task } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { TASKS_OF_RESOURCE_COUNT } from '../../config/clinical/taskLayout';

/** Tasks about a resource (app-spec §7): based on it, focused on it, or for it; newest first, each once. */
export function useResourceTasks(reference: string) {
  const client = useFhirClient();
  return useQuery<Task[], Error>({
    queryKey: ['hearth-resource-tasks', reference],
    queryFn: async ({ signal }) => {
      const search = (parameter: string) =>
        client.searchResources(
          'Task',
          { [parameter]: reference, _count: String(TASKS_OF_RESOURCE_COUNT), _sort: '-_lastUpdated' },
          { signal },
        );
      const lists = await Promise.all([search('based-on'), search('focus'), search('subject')]);
      const byId = new Map<string, Task>();
      for (const task of lists.flat()) if (task.id && !byId.has(task.id)) byId.set(task.id, task);
      return [...byId.values()].sort((a, b) => (b.meta?.lastUpdated ?? '').localeCompare(a.meta?.lastUpdated ?? ''));
    },
    retry: false,
  });
}
