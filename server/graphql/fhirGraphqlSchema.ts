import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLOutputType,
} from 'graphql';
import type { ElementDefinition, Resource, StructureDefinition } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { resourceTypeNames } from '../validation/fhirJsonSchema';
import { budgeted, type BudgetedContext } from './graphqlLimits';
import { runListQuery, type ConnectionResult } from './graphqlSearch';

export interface GraphqlContext extends BudgetedContext {
  session: RepositorySession;
  registry: SearchParameterRegistry;
  fhirBase: string;
}

/** The object types of the FHIR schema: built once, shared by the schema of every registry. */
export interface FhirGraphqlTypes {
  resourceTypes: readonly string[];
  resourceType(resourceType: string): GraphQLObjectType;
  connectionType(resourceType: string): GraphQLObjectType;
}

/** Fields the server never returns (see server/fhir/protectedFields.ts): absent from the schema too. */
const hiddenFields: Record<string, string[]> = { User: ['passwordHash', 'mfaSecret'] };

const primitiveScalars: Record<string, GraphQLOutputType> = {
  boolean: GraphQLBoolean,
  integer: GraphQLInt,
  positiveInt: GraphQLInt,
  unsignedInt: GraphQLInt,
  decimal: GraphQLFloat,
  'http://hl7.org/fhirpath/System.Boolean': GraphQLBoolean,
  'http://hl7.org/fhirpath/System.Integer': GraphQLInt,
  'http://hl7.org/fhirpath/System.Decimal': GraphQLFloat,
};

function isPrimitiveCode(code: string): boolean {
  return /^[a-z]/.test(code) || code.startsWith('http://hl7.org/fhirpath/');
}

/** GraphQL names allow letters, digits and underscores only: search codes like `address-city` become `address_city`. */
export function graphqlName(code: string): string {
  return code.replace(/[^_0-9A-Za-z]/g, '_');
}

function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

/**
 * The object types of the FHIR GraphQL schema, from StructureDefinitions: one per resource,
 * datatype and backbone element, and each resource's Connection. They do not depend on search
 * parameters, so they are built once (about half a second) and shared by every registry's schema:
 * a project's schema (its own SearchParameters are arguments) then costs only its Query type,
 * instead of a rebuild that a project admin could set off with every edit of a SearchParameter.
 * Every field resolves through `budgeted` (graphqlLimits.ts).
 */
export function buildFhirGraphqlTypes(structureDefinitions: readonly StructureDefinition[]): FhirGraphqlTypes {
  const byType = new Map<string, StructureDefinition>();
  for (const sd of structureDefinitions) {
    if (sd.derivation === 'constraint' || !sd.type || !sd.snapshot?.element?.length) continue;
    if (sd.kind === 'resource' || sd.kind === 'complex-type') byType.set(sd.type, sd);
  }
  const resourceTypes = resourceTypeNames().filter(
    (type) => byType.get(type)?.kind === 'resource' && !byType.get(type)?.abstract,
  );
  const objectTypes = new Map<string, GraphQLObjectType>();
  const usedNames = new Set<string>();

  const resourceUnion: GraphQLUnionType = new GraphQLUnionType({
    name: 'ResourceList',
    types: () => resourceTypes.map((type) => objectTypeFor(type, type, byType.get(type) as StructureDefinition)),
    resolveType: (value: Resource) => value.resourceType,
  });

  function outputTypeFor(code: string, sd: StructureDefinition, path: string): GraphQLOutputType {
    if (isPrimitiveCode(code)) return primitiveScalars[code] ?? GraphQLString;
    if (code === 'Resource' || code === 'DomainResource') return resourceUnion;
    if (code === 'BackboneElement' || code === 'Element') {
      const name = uniqueName(`${path.split('.').map(capitalize).join('')}`);
      return objectTypeFor(name, path, sd);
    }
    const datatype = byType.get(code);
    if (!datatype) return GraphQLString;
    return objectTypeFor(code, code, datatype);
  }

  function uniqueName(candidate: string): string {
    // Backbone types are named after their path; a clash with a real type gets a suffix.
    let name = candidate;
    while (usedNames.has(name) || (byType.has(name) && !objectTypes.has(name) && name !== candidate)) name = `${name}_`;
    return name;
  }

  function objectTypeFor(name: string, path: string, sd: StructureDefinition): GraphQLObjectType {
    const key = `${sd.type}:${path}`;
    const existing = objectTypes.get(key);
    if (existing) return existing;
    usedNames.add(name);
    const type = new GraphQLObjectType<Record<string, unknown>, GraphqlContext>({
      name,
      fields: () => {
        const fields: Record<string, GraphQLFieldConfig<Record<string, unknown>, GraphqlContext>> = {};
        if (path === sd.type && sd.kind === 'resource')
          fields.resourceType = { type: GraphQLString, resolve: budgeted() };
        for (const element of childElements(sd, path)) {
          const elementName = (element.path as string).slice(path.length + 1);
          if (hiddenFields[sd.type as string]?.includes(elementName)) continue;
          const many = element.max === '*' || Number(element.max) > 1;
          const variants = elementVariants(element, elementName, sd);
          for (const variant of variants) {
            const base = outputTypeFor(variant.code, sd, variant.path);
            fields[graphqlName(variant.field)] = { type: many ? new GraphQLList(base) : base, resolve: budgeted() };
          }
        }
        if (sd.type === 'Reference' && path === 'Reference') {
          fields.resource = {
            type: resourceUnion,
            resolve: budgeted((reference, _args, context) => resolveReference(reference.reference, context)),
          };
        }
        return fields;
      },
    });
    objectTypes.set(key, type);
    return type;
  }

  function elementVariants(
    element: ElementDefinition,
    elementName: string,
    sd: StructureDefinition,
  ): { field: string; code: string; path: string }[] {
    if (element.contentReference) {
      const target = element.contentReference.replace(/^.*#/, '');
      return [{ field: elementName, code: 'BackboneElement', path: target }];
    }
    const codes = (element.type ?? []).map((t) => t.code as string);
    if (elementName.endsWith('[x]')) {
      const stem = elementName.slice(0, -3);
      return codes.map((code) => ({ field: `${stem}${capitalize(code)}`, code, path: `${element.path}` }));
    }
    const code = codes[0] ?? 'string';
    // A backbone element (or an Element with children) gets its own type named after its path.
    const hasChildren = sd.snapshot?.element?.some((e) => e.path?.startsWith(`${element.path}.`));
    return [
      {
        field: elementName,
        code: hasChildren && (code === 'BackboneElement' || code === 'Element') ? 'BackboneElement' : code,
        path: element.path as string,
      },
    ];
  }

  const connections = new Map<string, GraphQLObjectType>();
  const resourceType = (type: string) => objectTypeFor(type, type, byType.get(type) as StructureDefinition);
  return {
    resourceTypes,
    resourceType,
    connectionType(type: string) {
      let connection = connections.get(type);
      if (!connection) {
        connection = connectionType(type, resourceType(type));
        connections.set(type, connection);
      }
      return connection;
    },
  };
}

/**
 * The FHIR GraphQL schema of a registry: `{Type}`, `{Type}List` and `{Type}Connection` queries
 * whose arguments are the type's search parameters, over the shared object types.
 */
export function buildFhirGraphqlSchema(types: FhirGraphqlTypes, registry: SearchParameterRegistry): GraphQLSchema {
  const queryFields: Record<string, GraphQLFieldConfig<unknown, GraphqlContext>> = {};
  for (const resourceType of types.resourceTypes) {
    const type = types.resourceType(resourceType);
    const args = searchArguments(resourceType, registry);
    queryFields[resourceType] = {
      type,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: budgeted((_root, args: { id: string }, context) =>
        context.budget.admitDatabaseCall() ? context.session.read(resourceType, args.id) : null,
      ),
    };
    queryFields[`${resourceType}List`] = {
      type: new GraphQLList(type),
      args: args.map,
      resolve: budgeted(async (_root, values: Record<string, unknown>, context) =>
        context.budget.admitDatabaseCall()
          ? (await runListQuery(resourceType, values, args.codes, context)).resources
          : null,
      ),
    };
    queryFields[`${resourceType}Connection`] = {
      type: types.connectionType(resourceType),
      args: args.map,
      resolve: budgeted((_root, values: Record<string, unknown>, context) =>
        context.budget.admitDatabaseCall() ? runListQuery(resourceType, values, args.codes, context) : null,
      ),
    };
  }
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: queryFields }) });
}

function childElements(sd: StructureDefinition, path: string): ElementDefinition[] {
  const depth = path.split('.').length + 1;
  return (sd.snapshot?.element ?? []).filter(
    (e) => e.path?.startsWith(`${path}.`) && e.path.split('.').length === depth && e.max !== '0',
  );
}

function searchArguments(
  resourceType: string,
  registry: SearchParameterRegistry,
): { map: GraphQLFieldConfigArgumentMap; codes: Map<string, string> } {
  const map: GraphQLFieldConfigArgumentMap = {
    _count: { type: GraphQLInt },
    _offset: { type: GraphQLInt },
    _sort: { type: GraphQLString },
    _id: { type: GraphQLString },
    _lastUpdated: { type: GraphQLString },
    // FHIR _filter (server/search/filterExpression.ts); Medplum's requestSchema() sends it.
    _filter: { type: GraphQLString },
  };
  const codes = new Map<string, string>([
    ['_id', '_id'],
    ['_lastUpdated', '_lastUpdated'],
  ]);
  for (const parameter of [...registry.globalParameters(), ...registry.forType(resourceType)]) {
    const name = graphqlName(parameter.code);
    if (name in map || name.startsWith('__')) continue;
    map[name] = { type: GraphQLString };
    codes.set(name, parameter.code);
  }
  return { map, codes };
}

function connectionType(
  resourceType: string,
  resource: GraphQLObjectType,
): GraphQLObjectType<ConnectionResult, GraphqlContext> {
  const edge = new GraphQLObjectType<{ mode: string; resource: Resource }, GraphqlContext>({
    name: `${resourceType}ConnectionEdge`,
    fields: {
      mode: { type: GraphQLString, resolve: budgeted() },
      score: { type: GraphQLFloat, resolve: budgeted() },
      resource: { type: resource, resolve: budgeted() },
    },
  });
  return new GraphQLObjectType<ConnectionResult, GraphqlContext>({
    name: `${resourceType}Connection`,
    fields: {
      count: { type: GraphQLInt, resolve: budgeted() },
      offset: { type: GraphQLInt, resolve: budgeted() },
      pageSize: { type: GraphQLInt, resolve: budgeted() },
      first: { type: GraphQLString, resolve: budgeted() },
      previous: { type: GraphQLString, resolve: budgeted() },
      next: { type: GraphQLString, resolve: budgeted() },
      last: { type: GraphQLString, resolve: budgeted() },
      edges: { type: new GraphQLList(edge), resolve: budgeted() },
    },
  });
}

async function resolveReference(reference: unknown, context: GraphqlContext): Promise<Resource | null> {
  if (typeof reference !== 'string') return null;
  const match = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(reference);
  if (!match || !context.budget.admitDatabaseCall()) return null;
  try {
    return await context.session.read(match[1], match[2]);
  } catch {
    // A dangling or deleted reference resolves to null, as FHIR GraphQL says.
    return null;
  }
}
