import { useQuery } from '@tanstack/react-query';
import type { QuestionnaireResponse, Task } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { isQuestionnaireResponse, useFocus } from './useTask';

export function taskResponseQueryKey(taskId: string) {
  return ['hearth-task-response', taskId];
}

const RESPONSE_REFERENCE = /^QuestionnaireResponse\/([A-Za-z0-9\-.]+)$/;

/** The id of the response a task's output names, if it names one. */
function outputResponseId(task: Task): string | undefined {
  for (const output of task.output ?? []) {
    const id = RESPONSE_REFERENCE.exec(output.valueReference?.reference ?? '')?.[1];
    if (id) return id;
  }
  return undefined;
}

/**
 * The QuestionnaireResponse a task is about: its focus (a response to review), else the one its
 * output names (a task filled here names it), else — for a completed questionnaire task filled
 * elsewhere or before the output was written — the newest response based on it.
 */
export function useTaskResponse(task: Task) {
  const client = useFhirClient();
  const focus = useFocus(task);
  const outputId = outputResponseId(task);
  const filled = task.status === 'completed' && !!task.focus?.reference?.startsWith('Questionnaire/');
  const found = useQuery<QuestionnaireResponse | null, Error>({
    queryKey: taskResponseQueryKey(task.id ?? ''),
    queryFn: async ({ signal }) => {
      if (outputId) return client.readResource('QuestionnaireResponse', outputId, { signal });
      // No cache: right after the submit the browser may still hold the search from before it.
      const response = await client.searchOne(
        'QuestionnaireResponse',
        { 'based-on': `Task/${task.id}`, _sort: '-authored' },
        { signal, cache: 'no-cache' },
      );
      return response ?? null;
    },
    enabled: !!task.id && !isQuestionnaireResponse(focus.data) && (!!outputId || filled),
    retry: false,
  });
  if (isQuestionnaireResponse(focus.data)) return { data: focus.data, error: null };
  return { data: found.data ?? undefined, error: found.error };
}
