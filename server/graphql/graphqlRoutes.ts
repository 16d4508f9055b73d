import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StructureDefinition } from '@medplum/fhirtypes';
import { graphql, type GraphQLSchema } from 'graphql';
import { readDefinitionBundle } from '../definitions/definitionFiles';
import { errors } from '../fhir/fhirError';
import type { Repository, RequestContext } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { buildFhirGraphqlSchema } from './fhirGraphqlSchema';

export interface GraphqlRoutesOptions {
  repository: Repository;
  registry: SearchParameterRegistry;
  baseUrl: string;
  contextOf(request: FastifyRequest): RequestContext;
}

interface GraphqlBody {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
}

/** `POST /fhir/R4/$graphql`: FHIR GraphQL over the same repository and search engine as REST. */
export async function graphqlRoutes(app: FastifyInstance, options: GraphqlRoutesOptions): Promise<void> {
  let cached: { version: number; schema: GraphQLSchema } | undefined;
  const schema = () => {
    // Rebuilt when search parameters change, since they are the List/Connection arguments.
    if (cached?.version !== options.registry.version) {
      const sds = ['profiles-types.json', 'profiles-resources.json', 'profiles-medplum.json'].flatMap((f) =>
        readDefinitionBundle(f),
      ) as StructureDefinition[];
      cached = { version: options.registry.version, schema: buildFhirGraphqlSchema(sds, options.registry) };
    }
    return cached.schema;
  };

  app.post('/fhir/R4/$graphql', async (request, reply) => {
    const body = (request.body ?? {}) as GraphqlBody;
    if (typeof body.query !== 'string' || body.query.trim() === '')
      throw errors.invalid('Missing query: the body must be {"query": "…"}', 'query');
    if (
      body.variables !== undefined &&
      body.variables !== null &&
      (typeof body.variables !== 'object' || Array.isArray(body.variables))
    ) {
      throw errors.invalid('variables must be an object', 'variables');
    }
    const result = await options.repository.transaction(
      (session) =>
        graphql({
          schema: schema(),
          source: body.query as string,
          operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
          variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
          contextValue: { session, registry: options.registry, fhirBase: `${options.baseUrl}fhir/R4/` },
        }),
      options.contextOf(request).access,
    );
    return reply.type('application/json').send(result);
  });
}
