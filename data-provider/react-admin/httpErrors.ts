import { HttpError } from 'react-admin';
import type { OperationOutcome } from '@medplum/fhirtypes';
import { badRequest } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';

/** The body of the HttpErrors the providers throw: the server's OperationOutcome, whole. */
export interface OutcomeErrorBody {
  outcome: OperationOutcome;
}

/**
 * A client error as react-admin's HttpError: the message is the outcome's text (spec §8: issues
 * joined with semicolons, diagnostics and expressions in parentheses), the status the server's,
 * and the outcome rides along so screens can put each issue under its field.
 */
export function toHttpError(error: OperationOutcomeError): HttpError {
  const body: OutcomeErrorBody = { outcome: error.outcome };
  return new HttpError(error.message, error.status, body);
}

/**
 * Runs a client call and converts its OperationOutcome errors. Anything else — an abort above
 * all, which react-query must recognise as such — is passed through untouched.
 */
export async function withHttpErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OperationOutcomeError) throw toHttpError(error);
    throw error;
  }
}

/** A 400 HttpError for a request the provider refuses to send (say, a sort with no search parameter). */
export function invalidRequest(text: string, expression?: string): HttpError {
  return toHttpError(new OperationOutcomeError(badRequest(text, expression), 400));
}

/** The OperationOutcome carried by an HttpError of these providers, if any. */
export function outcomeOfHttpError(error: unknown): OperationOutcome | undefined {
  if (!(error instanceof HttpError)) return undefined;
  return (error.body as Partial<OutcomeErrorBody> | undefined)?.outcome;
}
