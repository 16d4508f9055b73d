import {
  defaultFieldResolver,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';

/**
 * What one `$graphql` request may cost. A query is small text, but aliases and fragments repeat
 * its fields, and `Reference.resource` follows references: without limits, a fragment that spreads
 * the next one twice doubles the work at each of its few bytes (2^n reads of the database in one
 * transaction from an n-fragment query, which on the embedded database holds every other request),
 * and fifty aliases in `__schema { types { fields { … } } }` answer 10 MB.
 */
export interface GraphqlLimits {
  /** Lexical tokens of the query text: parsing stops there, whatever the size of the body. */
  maxTokens: number;
  /** Fields nested in fields (fragments are expanded and are not a level of their own). */
  maxDepth: number;
  /** Field selections of one operation, every fragment spread expanded where it is spread. */
  maxSelections: number;
  /**
   * Field values the answer may hold: each object's selected fields, counted for every object
   * (each list item too) before they are resolved — so what is refused is never computed.
   */
  maxFieldValues: number;
  /** Reads and searches of the database. */
  maxDatabaseCalls: number;
}

/**
 * The browser's largest queries load definitions (schema-engine/loading/graphqlSchemaSource.ts):
 * ~100 fields, ~330 tokens and depth 7 per StructureDefinitionList alias, and a form's datatypes
 * are at most ~80 aliases (26,000 tokens, 7,800 selections); five large definitions together
 * (ExplanationOfBenefit, Questionnaire…) answer ~22,000 field values. The standard introspection
 * query (GraphiQL, codegen) is 15 deep with 230 selections. Each limit leaves several times that;
 * a thousand resources with a reference each resolved are 2,001 reads and searches.
 */
export const graphqlLimits: GraphqlLimits = {
  maxTokens: 100_000,
  maxDepth: 20,
  maxSelections: 20_000,
  maxFieldValues: 1_000_000,
  maxDatabaseCalls: 5_000,
};

/** Nesting of fragments, inline fragments and fields beyond which the shape is not walked at all. */
const maxNesting = 200;

interface Shape {
  depth: number;
  selections: number;
  introspection: boolean;
  aliases: boolean;
}

/**
 * Checks the operations of a parsed document against the limits before it is validated or run:
 * the message of the first limit exceeded, or undefined. Fragments are measured once each (a
 * fragment spread twice in each of n fragments is 2^n selections, counted in n steps).
 *
 * Introspection (`__schema`, `__type`) reads the server's own schema, where no field value is
 * counted as it is resolved: an operation that uses it may not use aliases, so that each field of
 * each schema element is answered once — what the standard introspection query asks, nothing more.
 */
export function checkQueryShape(document: DocumentNode, limits: GraphqlLimits = graphqlLimits): string | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const measured = new Map<string, Shape>();
  const measuring = new Set<string>();

  const measure = (selectionSet: SelectionSetNode, nesting: number): Shape => {
    if (nesting > maxNesting) throw new ShapeError(`The query nests more than ${maxNesting} levels`);
    const shape: Shape = { depth: 0, selections: 0, introspection: false, aliases: false };
    const add = (inner: Shape, fieldLevel: boolean) => {
      shape.depth = Math.max(shape.depth, inner.depth + (fieldLevel ? 1 : 0));
      shape.selections += inner.selections;
      shape.introspection ||= inner.introspection;
      shape.aliases ||= inner.aliases;
    };
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const inner = selection.selectionSet
          ? measure(selection.selectionSet, nesting + 1)
          : { depth: 0, selections: 0, introspection: false, aliases: false };
        add(
          {
            ...inner,
            selections: inner.selections + 1,
            introspection: inner.introspection || name === '__schema' || name === '__type',
            aliases: inner.aliases || (selection.alias !== undefined && selection.alias.value !== name),
          },
          true,
        );
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        add(measure(selection.selectionSet, nesting + 1), false);
      } else {
        add(measureFragment(selection.name.value, nesting + 1), false);
      }
      // Counts stop growing past the limit: a fragment bomb's count is not worth computing exactly.
      shape.selections = Math.min(shape.selections, limits.maxSelections + 1);
    }
    return shape;
  };

  const measureFragment = (name: string, nesting: number): Shape => {
    const known = measured.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    // Unknown and cyclic fragments are errors of validation (KnownFragmentNames, NoFragmentCycles).
    if (!fragment || measuring.has(name)) return { depth: 0, selections: 0, introspection: false, aliases: false };
    measuring.add(name);
    const shape = measure(fragment.selectionSet, nesting);
    measuring.delete(name);
    measured.set(name, shape);
    return shape;
  };

  try {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const shape = measure(definition.selectionSet, 0);
      if (shape.depth > limits.maxDepth) return `The query nests fields more than ${limits.maxDepth} deep`;
      if (shape.selections > limits.maxSelections) {
        return `The query selects more than ${limits.maxSelections} fields (fragments expanded)`;
      }
      if (shape.introspection && shape.aliases)
        return 'A query that reads the schema (__schema, __type) cannot use aliases';
    }
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    throw error;
  }
  return undefined;
}

class ShapeError extends Error {}

/** What a `$graphql` request has spent; a query stops (answers only an error) once a limit is passed. */
export class GraphqlBudget {
  private fieldValues = 0;
  private databaseCalls = 0;
  /** Why the query was stopped, once it was. */
  exceeded?: string;

  constructor(private readonly limits: GraphqlLimits = graphqlLimits) {}

  /** Before `count` more field values are resolved: false (and the query stopped) past the limit. */
  admitFieldValues(count: number): boolean {
    if (this.exceeded) return false;
    this.fieldValues += count;
    if (this.fieldValues > this.limits.maxFieldValues) {
      this.exceeded = `The query's answer would hold more than ${this.limits.maxFieldValues} field values`;
    }
    return !this.exceeded;
  }

  /** Before a read or a search: false (and the query stopped) past the limit. */
  admitDatabaseCall(): boolean {
    if (this.exceeded) return false;
    if (++this.databaseCalls > this.limits.maxDatabaseCalls) {
      this.exceeded = `The query needs more than ${this.limits.maxDatabaseCalls} reads and searches`;
    }
    return !this.exceeded;
  }
}

/** The context every field of the FHIR schema is resolved with needs a budget. */
export interface BudgetedContext {
  budget: GraphqlBudget;
}

const widths = new WeakMap<SelectionSetNode, number>();

/** Fields selected on each object of a selection set, fragments expanded (every type condition counted). */
export function selectionWidth(
  selectionSet: SelectionSetNode,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
): number {
  const known = widths.get(selectionSet);
  if (known !== undefined) return known;
  let width = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) width += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) width += selectionWidth(selection.selectionSet, fragments);
    else {
      const fragment = fragments[selection.name.value] as FragmentDefinitionNode | undefined;
      if (fragment) width += selectionWidth(fragment.selectionSet, fragments);
    }
  }
  widths.set(selectionSet, width);
  return width;
}

/**
 * A field resolver that pays, before its value's fields are resolved, for all of them (every item
 * of a list times the fields selected on it), and resolves nothing once the query is stopped. So
 * the work of an answer is paid for before it is done: a list of a thousand resources under ten
 * thousand aliases is refused at the list, not after ten million values.
 */
export function budgeted<TSource, TContext extends BudgetedContext>(
  resolve: GraphQLFieldResolver<TSource, TContext> = defaultFieldResolver,
): GraphQLFieldResolver<TSource, TContext> {
  return (source, args, context, info) => {
    if (context.budget.exceeded) return null;
    const value: unknown = resolve(source, args, context, info);
    if (value instanceof Promise) return value.then((resolved: unknown) => admit(resolved, context.budget, info));
    return admit(value, context.budget, info);
  };
}

function admit(value: unknown, budget: GraphqlBudget, info: GraphQLResolveInfo): unknown {
  if (value === null || typeof value !== 'object') return value;
  let width = 0;
  for (const node of info.fieldNodes) if (node.selectionSet) width += selectionWidth(node.selectionSet, info.fragments);
  if (width === 0) return value;
  const count = Array.isArray(value) ? value.length : 1;
  return budget.admitFieldValues(count * width) ? value : null;
}
