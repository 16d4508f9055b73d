import type { Bundle, BundleEntry, QuestionnaireResponse, Task, TaskOutput } from '@medplum/fhirtypes';
import type { PatchOperation } from '../../data-provider/client';
import { completePatch } from './taskPatch';

/** base64 of UTF-8 text, in the browser and in Node alike. */
function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A PATCH entry of a transaction: the JSON Patch travels as a Binary (FHIR R4 §3.1.0.11). */
export function patchEntry(resourceType: string, id: string, operations: PatchOperation[]): BundleEntry {
  return {
    resource: {
      resourceType: 'Binary',
      contentType: 'application/json-patch+json',
      data: base64(JSON.stringify(operations)),
    },
    request: { method: 'PATCH', url: `${resourceType}/${id}` },
  };
}

/**
 * Filling a task's questionnaire: the completed response (based on the task) and the task's
 * completion, in one transaction. The task patch carries the version test, so if someone changed
 * the task meanwhile nothing is written and the response is not orphaned.
 */
export function fillTaskTransaction(task: Task, response: QuestionnaireResponse): Bundle {
  const fullUrl = 'urn:uuid:' + crypto.randomUUID();
  // The task names what it produced (the server gives the urn:uuid the response's id), so its
  // Details find the response by reading, not by searching `based-on`.
  const output: TaskOutput = { type: { text: 'QuestionnaireResponse' }, valueReference: { reference: fullUrl } };
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: [
      {
        fullUrl,
        resource: { ...response, basedOn: [...(response.basedOn ?? []), { reference: `Task/${task.id}` }] },
        request: { method: 'POST', url: 'QuestionnaireResponse' },
      },
      patchEntry('Task', task.id as string, [
        ...completePatch(task),
        task.output?.length
          ? { op: 'add', path: '/output/-', value: output }
          : { op: 'add', path: '/output', value: [output] },
      ]),
    ],
  };
}
