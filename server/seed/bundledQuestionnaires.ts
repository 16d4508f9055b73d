import type { Questionnaire, ValueSet } from '@medplum/fhirtypes';
import { bundledQuestionnaires } from '../../config/questionnaires';
import { taskBusinessStatusValueSet } from '../../config/clinical/taskTerminology';
import type { RepositorySession } from '../fhir/repository';
import { systemAuthor } from '../definitions/loadDefinitions';

/**
 * The clinical content every project starts with: the visit-note questionnaire ("SOAP Note -
 * Menopause Service", app-spec §3) and the task business-status value set the task page offers.
 * Called inside the transaction that creates the project, so a project never exists without them.
 * They are ordinary resources of the project afterwards: its admins may edit or retire them.
 */
export async function seedBundledQuestionnaires(
  session: RepositorySession,
  projectId: string,
): Promise<{ questionnaires: Questionnaire[]; valueSets: ValueSet[] }> {
  const ctx = { projectId, author: systemAuthor };
  const questionnaires: Questionnaire[] = [];
  for (const questionnaire of bundledQuestionnaires) {
    questionnaires.push((await session.create(ctx, structuredClone(questionnaire))) as Questionnaire);
  }
  const valueSet = (await session.create(ctx, structuredClone(taskBusinessStatusValueSet))) as ValueSet;
  return { questionnaires, valueSets: [valueSet] };
}
