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

const maxCachedSchemas = 8;

interface GraphqlBody {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
}

/** `POST /fhir/R4/$graphql`: FHIR GraphQL over the same repository and search engine as REST. */
export async function graphqlRoutes(app: FastifyInstance, options: GraphqlRoutesOptions): Promise<void> {
  // One schema per registry (the base one, and each project's with SearchParameters of its own:
  // they are List/Connection arguments there only), rebuilt when its parameters change. Few
  // projects' schemas are kept: the least recently used is dropped past the limit.
  const cached = new Map<SearchParameterRegistry, { version: number; schema: GraphQLSchema }>();
  let definitions: StructureDefinition[] | undefined;
  const schema = (registry: SearchParameterRegistry) => {
    let entry = cached.get(registry);
    if (entry?.version !== registry.version) {
      definitions ??= ['profiles-types.json', 'profiles-resources.json', 'profiles-medplum.json'].flatMap((f) =>
        readDefinitionBundle(f),
      ) as StructureDefinition[];
      entry = { version: registry.version, schema: buildFhirGraphqlSchema(definitions, registry) };
    }
    cached.delete(registry);
    cached.set(registry, entry);
    if (cached.size > maxCachedSchemas) cached.delete(cached.keys().next().value as SearchParameterRegistry);
    return entry.schema;
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
          schema: schema(session.registry),
          source: body.query as string,
          operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
          variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
          contextValue: { session, registry: session.registry, fhirBase: `${options.baseUrl}fhir/R4/` },
        }),
      options.contextOf(request).access,
    );
    return reply.type('application/json').send(result);
  });
}
