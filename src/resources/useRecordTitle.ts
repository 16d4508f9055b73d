import type { Resource } from '@medplum/fhirtypes';
import { getDisplayString } from '../../data-provider/formatting';
import { useResponseQuestionnaire } from '../questionnaire/useResponseQuestionnaire';

/**
 * What a record's page is headed with: its display string, or for a questionnaire response the
 * title of the questionnaire it answers ("SOAP Note - Menopause Service") — a response has no name
 * of its own, and "QuestionnaireResponse/1f0c…" said nothing. `fallback` while it loads.
 */
export function useRecordTitle(resource: Resource | undefined, fallback: string): string {
  const response = resource?.resourceType === 'QuestionnaireResponse' ? resource : undefined;
  const questionnaire = useResponseQuestionnaire(response);
  if (!resource) return fallback;
  const answered = questionnaire?.title?.trim() || questionnaire?.name?.trim();
  return answered || getDisplayString(resource);
}
