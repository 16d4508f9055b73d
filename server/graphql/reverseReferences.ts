import {
  GraphQLError,
  GraphQLScalarType,
  Kind,
  type ASTVisitor,
  type GraphQLField,
  type ValidationContext,
  type ValueNode,
} from 'graphql';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';

/**
 * FHIR GraphQL reverse references (https://hl7.org/fhir/R4/graphql.html#reverse): on a resource,
 * `{Source}List(_reference: code, …)` lists the `{Source}` resources whose search parameter `code`
 * points at it — the search `{Source}?{code}={Target}/{id}&…`.
 */
export interface ReverseReference {
  /** The type that is searched (`Observation` in `Patient { ObservationList(…) }`). */
  source: string;
  /** The type of the resource the field is on (`Patient`). */
  target: string;
  /** The reference search parameters of `source` that can point at a `target`, from the base definitions. */
  codes: readonly string[];
}

/**
 * For each resource type, the types that can reference it and by which search parameters, from a
 * registry's definitions (the base registry: the object types are shared by every project, so a
 * project's own SearchParameters are not among the codes — its searches may still use them in `_filter`).
 * A parameter without targets (Reference(Any) in R4 lists every type) points at no type here.
 */
export function reverseReferences(
  registry: SearchParameterRegistry,
  resourceTypes: readonly string[],
): Map<string, ReverseReference[]> {
  const known = new Set(resourceTypes);
  const byTarget = new Map<string, ReverseReference[]>();
  for (const source of resourceTypes) {
    const codesByTarget = new Map<string, string[]>();
    for (const parameter of registry.forType(source)) {
      if (parameter.type !== 'reference') continue;
      for (const target of parameter.target) {
        if (!known.has(target)) continue;
        const codes = codesByTarget.get(target) ?? [];
        if (!codes.includes(parameter.code)) codes.push(parameter.code);
        codesByTarget.set(target, codes);
      }
    }
    for (const [target, codes] of codesByTarget) {
      const list = byTarget.get(target) ?? [];
      list.push({ source, target, codes: codes.sort() });
      byTarget.set(target, list);
    }
  }
  return byTarget;
}

/**
 * The search parameter code a `_reference` value names, or undefined when it names none of the
 * field's. GraphQL names cannot hold `-`, so `based_on` (an enum-like literal, as the spec's
 * examples write it) stands for `based-on`; the code itself, quoted, is accepted too.
 */
export function referenceCodeOf(reference: ReverseReference, value: string): string | undefined {
  return reference.codes.find((code) => code === value || code.replace(/[^_0-9A-Za-z]/g, '_') === value);
}

/** "a Patient", "an Organization": the error reads as a sentence. */
function article(type: string): string {
  return `${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** The error for a `_reference` value that names no parameter of the field: names the argument and the choices. */
export function reverseReferenceError(reference: ReverseReference, value: string): string {
  return (
    `Argument "_reference" of field "${reference.source}List" on type "${reference.target}": "${value}" is not ` +
    `a reference search parameter of ${reference.source} that can point at ${article(reference.target)} ` +
    `(expected one of: ${reference.codes.join(', ')})`
  );
}

/**
 * The type of `_reference`: one scalar for every reverse-reference field, taking the spec's bare
 * `_reference: subject` (an enum literal) or a string. An enum per field (what Medplum's server
 * declares) would be ~5,700 more types in every schema and its introspection; which codes a field
 * takes is checked instead by `reverseReferenceRule` (literals) and by the resolver (variables).
 */
export const searchParameterCodeScalar = new GraphQLScalarType<string, string>({
  name: 'SearchParameterCode',
  description: 'The code of a search parameter, bare (subject, based_on) or quoted ("based-on")',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== 'string') throw new GraphQLError('A search parameter code is a string');
    return value;
  },
  parseLiteral: (node: ValueNode) => {
    if (node.kind === Kind.ENUM || node.kind === Kind.STRING) return node.value;
    throw new GraphQLError('A search parameter code is a name or a string', { nodes: node });
  },
});

const extensionKey = 'fhirReverseReference';

/** The extensions of a reverse-reference field, which say what its `_reference` may name. */
export function reverseReferenceExtensions(reference: ReverseReference): Record<string, ReverseReference> {
  return { [extensionKey]: reference };
}

function reverseReferenceOf(field: GraphQLField<unknown, unknown> | null | undefined): ReverseReference | undefined {
  return field?.extensions[extensionKey] as ReverseReference | undefined;
}

/**
 * A validation rule: a literal `_reference` that names no reference parameter of the field's type
 * pointing at the parent type is an error before anything runs (a variable is checked when the
 * field resolves, with the same words).
 */
export function reverseReferenceRule(context: ValidationContext): ASTVisitor {
  return {
    Argument(node) {
      if (node.name.value !== '_reference') return;
      const reference = reverseReferenceOf(context.getFieldDef());
      if (!reference) return;
      const value = node.value;
      if (value.kind !== Kind.ENUM && value.kind !== Kind.STRING) return;
      if (!referenceCodeOf(reference, value.value)) {
        context.reportError(new GraphQLError(reverseReferenceError(reference, value.value), { nodes: node }));
      }
    },
  };
}
