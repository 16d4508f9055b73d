import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { QueryParams } from '../search/searchRequest';
import { conditionalDeleteOperation, conditionalUpdateOperation } from './conditionalOperations';
import { compartmentSearchOperation, systemSearchOperation } from './crossTypeSearch';
import { errors } from './fhirError';
import { refuseUnsupportedFormats } from './formatNegotiation';
import type { OperationEnvironment, OperationResult } from './fhirOperations';
import { header, preferredAnswer, send, type FhirRoutesOptions } from './restRoutes';
import { checkResourceLimits } from '../validation/resourceLimits';

type TypeParams = { type: string };
type CompartmentParams = { compartment: string; id: string; type: string };

/**
 * The interactions Medplum's client uses beyond the REST core (a Fastify plugin): conditional update
 * and delete on `{type}?{criteria}`, system search on the FHIR base, and compartment search
 * `Patient/{id}/{type}`. Same transaction and access rules as restRoutes.ts.
 */
export async function conditionalAndScopedRoutes(app: FastifyInstance, options: FhirRoutesOptions): Promise<void> {
  const fhirBase = `${options.baseUrl}fhir/R4/`;
  const { repository } = options;
  // XML and other formats are refused with 406 before any work (formatNegotiation.ts).
  refuseUnsupportedFormats(app);
  const run = async (request: FastifyRequest, operation: (env: OperationEnvironment) => Promise<OperationResult>) => {
    const ctx = options.contextOf(request);
    // The caller's project's parameters (session.registry), as in restRoutes.ts: the base registry
    // alone made a project's own codes unknown in these interactions.
    return repository.transaction(
      (session) => operation({ session, ctx, registry: session.registry, fhirBase }),
      ctx.access,
    );
  };

  const oneResource = options.resourceBodyLimit === undefined ? {} : { bodyLimit: options.resourceBodyLimit };
  app.put<{ Params: TypeParams }>('/fhir/R4/:type', oneResource, async (request, reply) => {
    // Before the transaction, as restRoutes.ts: a resource past the size limits holds nothing (413).
    checkResourceLimits(request.body);
    const query = request.query as QueryParams;
    const result = await run(request, (env) =>
      conditionalUpdateOperation(env, request.params.type, query, request.body, header(request, 'if-match')),
    );
    return send(reply, result, fhirBase, preferredAnswer(request, 'update'));
  });

  app.delete<{ Params: TypeParams }>('/fhir/R4/:type', async (request, reply) => {
    const query = request.query as QueryParams;
    return send(
      reply,
      await run(request, (env) => conditionalDeleteOperation(env, request.params.type, query)),
      fhirBase,
    );
  });

  app.get('/fhir/R4', async (request, reply) =>
    send(reply, await run(request, (env) => systemSearchOperation(env, request.query as QueryParams)), fhirBase),
  );

  app.get<{ Params: CompartmentParams }>('/fhir/R4/:compartment/:id/:type', async (request, reply) => {
    const { compartment, id, type } = request.params;
    // Operations on an instance have their own routes; anything else with a $ is unknown.
    if (type.startsWith('$')) throw errors.notSupported(`Unknown operation "${type}" on ${compartment}`, 404);
    const result = await run(request, (env) =>
      compartmentSearchOperation(env, compartment, id, type, request.query as QueryParams),
    );
    return send(reply, result, fhirBase);
  });
}
