import { useQuery } from '@tanstack/react-query';
import type { Questionnaire, QuestionnaireResponse, Task } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { SOAP_NOTE_MENOPAUSE_URL } from '../../config/questionnaires';
import { isClosedTaskStatus } from '../../config/clinical/taskStatus';
import { getDisplayString } from '../../data-provider/formatting';
import { pickDraft } from './draftRules';

/** The project's visit-note questionnaire (the bundled one, found by its canonical URL; newest if edited copies exist). */
export function useVisitNoteQuestionnaire() {
  const client = useFhirClient();
  return useQuery<Questionnaire | null, Error>({
    queryKey: ['hearth-visit-note-questionnaire'],
    queryFn: async ({ signal }) =>
      (await client.searchOne('Questionnaire', { url: SOAP_NOTE_MENOPAUSE_URL, _sort: '-_lastUpdated' }, { signal })) ??
      null,
    retry: false,
    staleTime: 60_000,
  });
}

/** The patient's open tasks (app-spec §4): a focus, and not completed, failed or rejected. */
export function useOpenTasks(patientId: string | undefined) {
  const client = useFhirClient();
  return useQuery<Task[], Error>({
    queryKey: ['hearth-open-tasks', patientId],
    queryFn: async ({ signal }) =>
      (
        await client.searchResources(
          'Task',
          {
            patient: `Patient/${patientId}`,
            'status:not': 'completed',
            'focus:missing': 'false',
            _count: '100',
            _sort: '-_lastUpdated',
          },
          { signal, cache: 'no-cache' },
        )
      ).filter((task) => !isClosedTaskStatus(task.status) && !!task.focus),
    enabled: !!patientId,
    retry: false,
  });
}

/** My in-progress visit note for this patient, if one was saved (here or on another machine). */
export function useVisitNoteDraft(
  patientId: string | undefined,
  questionnaire: Questionnaire | null | undefined,
  me: string | undefined,
) {
  const client = useFhirClient();
  return useQuery<QuestionnaireResponse | null, Error>({
    queryKey: ['hearth-visit-note-draft', patientId, questionnaire?.id, me],
    queryFn: async ({ signal }) => {
      const drafts = await client.searchResources(
        'QuestionnaireResponse',
        { subject: `Patient/${patientId}`, status: 'in-progress', _sort: '-_lastUpdated', _count: '20' },
        { signal, cache: 'no-cache' },
      );
      return pickDraft(drafts, questionnaire ?? {}, me) ?? null;
    },
    enabled: !!patientId && !!questionnaire,
    retry: false,
    // A draft is read once per opening; later the page holds the newer state.
    staleTime: Infinity,
    gcTime: 0,
  });
}

/** The name of `reference` (who submitted a note elsewhere, say); undefined while unknown or unreadable. */
export function useReferenceName(reference: string | undefined) {
  const client = useFhirClient();
  return (
    useQuery<string | null, Error>({
      queryKey: ['hearth-visit-note-person', reference],
      queryFn: async ({ signal }) => {
        try {
          return getDisplayString(await client.readReference({ reference }, { signal }));
        } catch {
          return null;
        }
      },
      enabled: !!reference && /^[A-Za-z]+\/[A-Za-z0-9\-.]+$/.test(reference),
      retry: false,
      staleTime: 60_000,
    }).data ?? undefined
  );
}
