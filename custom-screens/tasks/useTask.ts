import { useCallback, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuestionnaireResponse, Resource, ResourceType, Task } from '@medplum/fhirtypes';
import type { PatchOperation } from '../../data-provider/client';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { useToast } from '../../src/shell/toasts';
import { TASK_CONFLICT_MESSAGE } from '../../config/clinical/taskMessages';
import { isTaskConflict } from './taskConflict';

export function taskQueryKey(id: string) {
  return ['hearth-task', id];
}

/** The task as stored now (never from the cache: the version it carries guards every change). */
export function useTask(id: string | undefined) {
  const client = useFhirClient();
  return useQuery<Task | null, Error>({
    queryKey: taskQueryKey(id ?? ''),
    queryFn: async ({ signal }) => {
      try {
        return await client.readResource('Task', id as string, { signal, cache: 'no-cache' });
      } catch (error) {
        // Deleted or never there: the page says "No Task found" instead of an error.
        if (error instanceof OperationOutcomeError && (error.status === 404 || error.status === 410)) return null;
        throw error;
      }
    },
    enabled: !!id,
    retry: false,
  });
}

/** The resource a task is about (its focus), when it has one. */
export function useFocus(task: Task | null | undefined) {
  const client = useFhirClient();
  const reference = task?.focus?.reference;
  return useQuery<Resource, Error>({
    queryKey: ['hearth-task-focus', reference],
    queryFn: ({ signal }) => {
      const [type, id] = (reference as string).split('/');
      return client.readResource(type as ResourceType, id, { signal }) as Promise<Resource>;
    },
    enabled: !!reference && /^[A-Za-z]+\/[A-Za-z0-9\-.]+$/.test(reference),
    retry: false,
  });
}

export function isQuestionnaireResponse(resource: Resource | undefined): resource is QuestionnaireResponse {
  return resource?.resourceType === 'QuestionnaireResponse';
}

export interface TaskActionRunner {
  /**
   * Sends `patch(task)` for the task as loaded. Resolves true when saved (toast `success`), false
   * when it failed: on a version conflict the conflict message shows and the task is reloaded, so
   * the caller keeps what the user typed and they can try again on the new version.
   */
  run(success: string, patch: (task: Task) => PatchOperation[]): Promise<boolean>;
  remove(success: string): Promise<boolean>;
  pending: boolean;
}

export function useTaskActions(task: Task): TaskActionRunner {
  const client = useFhirClient();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [pending, setPending] = useState(false);
  const key = taskQueryKey(task.id as string);

  const fail = useCallback(
    async (error: unknown) => {
      if (isTaskConflict(error)) {
        toast.error(TASK_CONFLICT_MESSAGE);
        await queryClient.invalidateQueries({ queryKey: key });
      } else {
        toast.error(error);
      }
    },
    [queryClient, toast, task.id],
  );

  const run = useCallback(
    async (success: string, patch: (task: Task) => PatchOperation[]) => {
      setPending(true);
      try {
        const saved = await client.patchResource('Task', task.id as string, patch(task));
        queryClient.setQueryData(key, saved);
        void queryClient.invalidateQueries({ queryKey: ['hearth-history', 'Task', task.id] });
        toast.success(success);
        return true;
      } catch (error) {
        await fail(error);
        return false;
      } finally {
        setPending(false);
      }
    },
    [client, queryClient, toast, task, fail],
  );

  const remove = useCallback(
    async (success: string) => {
      setPending(true);
      try {
        await client.deleteResource('Task', task.id as string);
        queryClient.setQueryData(key, null);
        toast.success(success);
        return true;
      } catch (error) {
        await fail(error);
        return false;
      } finally {
        setPending(false);
      }
    },
    [client, queryClient, toast, task.id, fail],
  );

  return { run, remove, pending };
}
