import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ForwardedAnswer } from './bundleProcessor';

/**
 * A batch's operation entries (`ValueSet/$expand`, `Patient/{id}/$summary`, …) run as GET requests
 * of their own through this server's routes, carrying the batch's own credentials and nothing else:
 * the same authentication, access policy, SMART scopes and limits as if the caller had sent them
 * one by one (Medplum's client batches every GET it can, operations included).
 */
export function forwardedGetOf(
  app: FastifyInstance,
  request: FastifyRequest,
): (relativeUrl: string) => Promise<ForwardedAnswer> {
  const authorization = request.headers.authorization;
  return async (relativeUrl) => {
    const answer = await app.inject({
      method: 'GET',
      url: `/fhir/R4/${relativeUrl}`,
      headers: { accept: 'application/fhir+json', ...(authorization ? { authorization } : {}) },
    });
    let body: unknown;
    try {
      body = answer.body ? JSON.parse(answer.body) : undefined;
    } catch {
      body = undefined;
    }
    return { status: answer.statusCode, body };
  };
}
