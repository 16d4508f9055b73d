import {
  GraphQLBoolean,
  GraphQLError,
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
import {
  referenceCodeOf,
  reverseReferenceError,
  reverseReferenceExtensions,
  reverseReferences,
  searchParameterCodeScalar,
  type ReverseReference,
} from './reverseReferences';

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
 * Every field resolves through `budgeted` (graphqlLimits.ts). Each resource type also has its
 * reverse-reference fields (`Patient { ObservationList(_reference: subject) }`), from the reference
 * parameters of the registry's base definitions — the same for every project, like the types.
 */
export function buildFhirGraphqlTypes(
  structureDefinitions: readonly StructureDefinition[],
  registry: SearchParameterRegistry,
): FhirGraphqlTypes {
  const byType = new Map<string, StructureDefinition>();
  for (const sd of structureDefinitions) {
    if (sd.derivation === 'constraint' || !sd.type || !sd.snapshot?.element?.length) continue;
    if (sd.kind === 'resource' || sd.kind === 'complex-type') byType.set(sd.type, sd);
  }
  const resourceTypes = resourceTypeNames().filter(
    (type) => byType.get(type)?.kind === 'resource' && !byType.get(type)?.abstract,
  );
  const reverse = reverseReferences(registry.baseRegistry(), resourceTypes);
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
        if (path === sd.type && sd.kind === 'resource') {
          // Field names of elements start with a lower-case letter: `{Type}List` never clashes.
          for (const reference of reverse.get(path) ?? []) {
            fields[`${reference.source}List`] = reverseReferenceField(reference, resourceType(reference.source));
          }
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
          ? // A list has no count to answer (a Connection has): no count query for it.
            (await runListQuery(resourceType, { ...values, _total: values._total ?? 'none' }, args.codes, context))
              .resources
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

/**
 * The arguments of a reverse-reference field: the same for every field, so not each type's search
 * parameters as `{Type}List` has them — with ~5,700 such fields, those would make the schema (and
 * its introspection) many times larger. `_filter` reaches every parameter, the project's own too.
 */
const reverseReferenceArguments: GraphQLFieldConfigArgumentMap = {
  _reference: { type: new GraphQLNonNull(searchParameterCodeScalar) },
  _count: { type: GraphQLInt },
  _offset: { type: GraphQLInt },
  _sort: { type: GraphQLString },
  _filter: { type: GraphQLString },
};

const noCodes: ReadonlyMap<string, string> = new Map();

/**
 * `{Source}List(_reference: code, …)` on a `{Target}`: the search `{Source}?{code}={Target}/{id}&…`,
 * run as `{Source}List` runs (the caller's session: its access policy, compartments, scopes and
 * project), one database call of the request's budget per resource it is asked on.
 */
function reverseReferenceField(
  reference: ReverseReference,
  source: GraphQLObjectType,
): GraphQLFieldConfig<Record<string, unknown>, GraphqlContext> {
  return {
    type: new GraphQLList(source),
    args: reverseReferenceArguments,
    extensions: reverseReferenceExtensions(reference),
    resolve: budgeted(async (resource, args: Record<string, unknown>, context) => {
      const { _reference: value, ...search } = args;
      // Literals were checked by reverseReferenceRule; a variable's value is checked here.
      const code = referenceCodeOf(reference, String(value));
      if (!code) throw new GraphQLError(reverseReferenceError(reference, String(value)));
      // A resource without an id (one being built, say) has nothing that can point at it.
      if (typeof resource.id !== 'string' || !context.budget.admitDatabaseCall()) return null;
      // A list has no total: `_total=none` spares the count query each resource would run.
      const query = { ...search, _total: 'none', [code]: `${reference.target}/${resource.id}` };
      return (await runListQuery(reference.source, query, noCodes, context)).resources;
    }),
  };
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
