import type { Bundle, QuestionnaireResponse, Reference, Task } from '@medplum/fhirtypes';
import { MENOPAUSE_NOTE_TASK_CODE } from '../../config/clinical/taskTerminology';

/** The follow-up task a submitted visit note creates (app-spec §4). */
export function followUpTask(
  patient: Reference,
  focus: Reference,
  requester: Reference | undefined,
  now: string,
): Task {
  return {
    resourceType: 'Task',
    status: 'ready',
    intent: 'order',
    code: MENOPAUSE_NOTE_TASK_CODE,
    description: 'Review the menopause-service visit note',
    focus,
    for: patient,
    authoredOn: now,
    ...(requester ? { requester: requester as Task['requester'] } : {}),
  };
}

/**
 * Submitting a visit note: the completed response and its follow-up task in one transaction, so
 * neither exists without the other. A saved draft is completed in place (PUT, with If-Match on the
 * draft's version so a draft changed elsewhere is not overwritten); else the response is created.
 */
export function visitNoteTransaction(
  response: QuestionnaireResponse,
  patient: Reference,
  requester: Reference | undefined,
  now = new Date().toISOString(),
): Bundle {
  const draftId = response.id;
  const responseUrl = draftId ? `QuestionnaireResponse/${draftId}` : 'urn:uuid:' + crypto.randomUUID();
  const version = response.meta?.versionId;
  const { meta: _meta, ...body } = response;
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: [
      {
        fullUrl: draftId ? undefined : responseUrl,
        resource: { ...body, status: 'completed', authored: now },
        request: draftId
          ? { method: 'PUT', url: responseUrl, ...(version ? { ifMatch: `W/"${version}"` } : {}) }
          : { method: 'POST', url: 'QuestionnaireResponse' },
      },
      {
        fullUrl: 'urn:uuid:' + crypto.randomUUID(),
        resource: followUpTask(patient, { reference: responseUrl }, requester, now),
        request: { method: 'POST', url: 'Task' },
      },
    ],
  };
}

/** The ids the server gave the response and the task, from the transaction's answer. */
export function createdIds(answer: Bundle): { responseId?: string; taskId?: string } {
  const ids = (answer.entry ?? []).map((entry) => {
    const location = entry.response?.location ?? '';
    const match = /^(?:.*\/)?(QuestionnaireResponse|Task)\/([^/]+)/.exec(location);
    return match ? { type: match[1], id: match[2] } : { type: entry.resource?.resourceType, id: entry.resource?.id };
  });
  return {
    responseId: ids.find((x) => x.type === 'QuestionnaireResponse')?.id,
    taskId: ids.find((x) => x.type === 'Task')?.id,
  };
}
