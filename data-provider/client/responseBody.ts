import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import { notFound, structureError } from '../outcomes/outcomeCatalogue';
import { isOperationOutcome } from '../outcomes/outcomePredicates';
import { normalizeErrorString } from '../outcomes/outcomeText';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';

export type ResponseType = 'json' | 'text' | 'blob';

export function isJsonContentType(contentType: string | null): boolean {
  return contentType !== null && /[/+]json\b/i.test(contentType);
}

const issueCodeByStatus: Record<number, OperationOutcomeIssue['code']> = {
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  410: 'deleted',
  412: 'conflict',
  422: 'business-rule',
  429: 'throttled',
};

/** An outcome for an error answer that did not bring one. */
export function outcomeForStatus(status: number, text: string): OperationOutcome {
  const code = issueCodeByStatus[status] ?? (status >= 500 ? 'exception' : 'invalid');
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, details: { text } }] };
}

async function parseJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new OperationOutcomeError(
      structureError(`Invalid JSON in the server's answer: ${normalizeErrorString(error)}`),
      502,
      {
        cause: error,
      },
    );
  }
}

/** The error for an answer with status ≥ 400: the server's OperationOutcome when it sent one. */
export async function errorFromResponse(response: Response): Promise<OperationOutcomeError> {
  const { status } = response;
  if (isJsonContentType(response.headers.get('content-type'))) {
    const body = await parseJson(response).catch(() => undefined);
    if (isOperationOutcome(body)) return new OperationOutcomeError(body, status);
    if (body !== undefined)
      return new OperationOutcomeError(outcomeForStatus(status, normalizeErrorString(body)), status);
  }
  if (status === 404) return new OperationOutcomeError(notFound(), 404);
  const text = (await response.text().catch(() => '')).trim();
  return new OperationOutcomeError(outcomeForStatus(status, text || response.statusText || `HTTP ${status}`), status);
}

/**
 * The body of an answer: parsed JSON for JSON content types, text otherwise (or what
 * `responseType` asks for), nothing for 204/304. Throws an OperationOutcomeError for status ≥ 400.
 */
export async function readResponseBody(response: Response, responseType?: ResponseType): Promise<unknown> {
  if (response.status >= 400) throw await errorFromResponse(response);
  if (response.status === 204 || response.status === 304) return undefined;
  if (responseType === 'blob') return response.blob();
  if (responseType === 'text') return response.text();
  if (responseType === 'json' || isJsonContentType(response.headers.get('content-type'))) return parseJson(response);
  return response.text();
}
