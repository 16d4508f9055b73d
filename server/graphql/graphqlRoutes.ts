import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StructureDefinition } from '@medplum/fhirtypes';
import {
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
} from 'graphql';
import { readDefinitionBundle } from '../definitions/definitionFiles';
import { errors } from '../fhir/fhirError';
import type { Repository, RequestContext } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { buildFhirGraphqlSchema, buildFhirGraphqlTypes, type FhirGraphqlTypes } from './fhirGraphqlSchema';
import { checkQueryShape, GraphqlBudget, graphqlLimits, selectionWidth } from './graphqlLimits';
import { reverseReferenceRule } from './reverseReferences';

export interface GraphqlRoutesOptions {
  repository: Repository;
  registry: SearchParameterRegistry;
  baseUrl: string;
  contextOf(request: FastifyRequest): RequestContext;
}

const maxCachedSchemas = 8;

/** GraphQL's rules, and what `_reference` may name (refused before the transaction, like any invalid query). */
const validationRules = [...specifiedRules, reverseReferenceRule];

interface GraphqlBody {
  query?: unknown;
  operationName?: unknown;
  variables?: unknown;
}

/** `POST /fhir/R4/$graphql`: FHIR GraphQL over the same repository and search engine as REST. */
export async function graphqlRoutes(app: FastifyInstance, options: GraphqlRoutesOptions): Promise<void> {
  // One schema per registry (the base one, and each project's with SearchParameters of its own:
  // they are List/Connection arguments there only), rebuilt when its parameters change: only its
  // Query type, over object types built once for all. Few projects' schemas are kept: the least
  // recently used is dropped past the limit.
  const cached = new Map<SearchParameterRegistry, { version: number; schema: GraphQLSchema }>();
  let types: FhirGraphqlTypes | undefined;
  const schema = (registry: SearchParameterRegistry) => {
    let entry = cached.get(registry);
    if (entry?.version !== registry.version) {
      types ??= buildFhirGraphqlTypes(
        ['profiles-types.json', 'profiles-resources.json', 'profiles-medplum.json'].flatMap((f) =>
          readDefinitionBundle(f),
        ) as StructureDefinition[],
        options.registry,
      );
      entry = { version: registry.version, schema: buildFhirGraphqlSchema(types, registry) };
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
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
    const variableValues = (body.variables ?? undefined) as Record<string, unknown> | undefined;
    const access = options.contextOf(request).access;
    // Parsed, measured and validated before a transaction is opened: a refused query costs the
    // database nothing. The shape check comes first, being cheap whatever the query (each
    // fragment is measured once) where validation and execution are not.
    const document = parseQuery(body.query);
    if (!isDocument(document)) return reply.type('application/json').send(document);
    const shapeError = checkQueryShape(document);
    if (shapeError) return reply.type('application/json').send({ errors: [new GraphQLError(shapeError)] });
    // The registry the transaction's session will search with (Repository.transaction).
    const fhirSchema = schema(options.registry.forProject(access?.options.projectId));
    const validationErrors = validate(fhirSchema, document, validationRules);
    if (validationErrors.length > 0) return reply.type('application/json').send({ errors: validationErrors });

    const budget = new GraphqlBudget();
    // Past a limit the answer would be partial at random places: only the reason is answered.
    const refused = (): ExecutionResult => ({ errors: [new GraphQLError(budget.exceeded ?? 'Query refused')] });
    // The root fields are paid for here; each field pays for the fields of its value (budgeted()).
    const operation = getOperationAST(document, operationName);
    if (operation && !budget.admitFieldValues(selectionWidth(operation.selectionSet, fragmentsOf(document)))) {
      return reply.type('application/json').send(refused());
    }
    const result = await options.repository.transaction(async (session): Promise<ExecutionResult> => {
      const executed = await execute({
        schema: fhirSchema,
        document,
        operationName,
        variableValues,
        contextValue: { session, registry: session.registry, fhirBase: `${options.baseUrl}fhir/R4/`, budget },
      });
      return budget.exceeded ? refused() : executed;
    }, access);
    return reply.type('application/json').send(result);
  });
}

/** The parsed query, or the answer to a query that cannot be parsed (or is too long to be). */
function parseQuery(source: string): DocumentNode | ExecutionResult {
  try {
    return parse(source, { maxTokens: graphqlLimits.maxTokens });
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [error] };
    // A query nested deeper than the parser's recursion can follow.
    if (error instanceof RangeError) return { errors: [new GraphQLError('The query nests too deeply')] };
    throw error;
  }
}

function isDocument(value: DocumentNode | ExecutionResult): value is DocumentNode {
  return 'kind' in value;
}

function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  return fragments;
}
