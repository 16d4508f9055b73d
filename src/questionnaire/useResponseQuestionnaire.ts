import { useQuery } from '@tanstack/react-query';
import type { Questionnaire, QuestionnaireResponse, Resource } from '@medplum/fhirtypes';
import { useFhirClient } from '../resources/useFhirClient';
import { questionnaireCanonical } from './buildResponse';

/** True when `resource` is the questionnaire the canonical reference names (any version when it names none). */
function isQuestionnaireOf(resource: Resource | undefined, canonical: string): resource is Questionnaire {
  if (resource?.resourceType !== 'Questionnaire') return false;
  if (canonical === `Questionnaire/${resource.id}` || canonical === questionnaireCanonical(resource)) return true;
  return !canonical.includes('|') && canonical === resource.url;
}

/**
 * The Questionnaire a response answers: its title names the response, and it says which of its
 * answers are worked out (a score). A questionnaire task's focus is usually that questionnaire
 * already (`known`); otherwise it is read by id or looked up by its canonical url.
 */
export function useResponseQuestionnaire(response: QuestionnaireResponse | undefined, known?: Resource) {
  const client = useFhirClient();
  const canonical = response?.questionnaire ?? '';
  const isKnown = isQuestionnaireOf(known, canonical);
  const found = useQuery<Questionnaire | null, Error>({
    queryKey: ['hearth-response-questionnaire', canonical],
    queryFn: async ({ signal }) => {
      if (canonical.startsWith('Questionnaire/')) {
        return client.readResource('Questionnaire', canonical.slice('Questionnaire/'.length), { signal });
      }
      const [url, version] = canonical.split('|');
      return (await client.searchOne('Questionnaire', { url, ...(version ? { version } : {}) }, { signal })) ?? null;
    },
    enabled: !!canonical && !isKnown,
    staleTime: 60_000,
    retry: false,
  });
  return isKnown ? known : (found.data ?? undefined);
}
