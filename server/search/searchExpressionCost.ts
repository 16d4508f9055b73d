import type { OperationOutcomeIssue, SearchParameter } from '@medplum/fhirtypes';
import fhirpath from 'fhirpath';

/**
 * What a project's SearchParameter expression may be. A project admin's expression runs on every
 * write of its base types in that project (server/search/indexRows.ts), on the one event loop every
 * project shares, and fhirpath.js cannot be interrupted. Some FHIRPath costs more than its size:
 * each `.select($this & 'a' | $this & 'b')` doubles a collection (2^30 items in 30 steps), each
 * `.replace('a', 'aaaa')` quadruples a string, `repeat`, `descendants` and `aggregate` walk
 * without a bound, `matches` runs a regular expression of the admin's on the member's text
 * (catastrophic backtracking), and a `%resource` inside `where` rereads the whole resource for each
 * item (n^k for k nested levels). So an expression may only use functions whose cost is linear in
 * their input and whose output is no larger than it, may read the whole resource again only outside
 * function arguments, and is bounded in length and nesting. Every base definition (R4, Medplum's,
 * US Core) passes, so re-uploading one still works.
 */
export interface SearchExpressionLimits {
  /** Characters of one expression (the longest base definition has 1,386). */
  maxLength: number;
  /** Function calls inside the arguments of function calls (the base definitions nest 4 `iif`s). */
  maxArgumentNesting: number;
  /**
   * A project's own parameters evaluated on a write of one type, beyond the base ones: each costs
   * every write of that type, however cheap it is (US Core adds at most 3 to a type).
   */
  maxProjectParametersPerType: number;
  /** Components of a composite, each evaluated on every item (the base definitions have at most 3). */
  maxComponents: number;
}

export const searchExpressionLimits: SearchExpressionLimits = {
  maxLength: 4_000,
  maxArgumentNesting: 8,
  maxProjectParametersPerType: 100,
  maxComponents: 8,
};

/**
 * Functions linear in their input, whose result is no larger than it (filters, tests, type
 * casts, single-value string functions). `resolve` is allowed because the base definitions use it
 * (`where(resolve() is X)`, rewritten before it runs); anywhere else fhirpath.js refuses it without
 * its asynchronous mode, and the parameter indexes nothing.
 */
const boundedFunctions = new Set([
  'where',
  'exists',
  'all',
  'empty',
  'not',
  'first',
  'last',
  'single',
  'tail',
  'skip',
  'take',
  'count',
  'ofType',
  'as',
  'is',
  'iif',
  'hasValue',
  'extension',
  'resolve',
  'allTrue',
  'anyTrue',
  'allFalse',
  'anyFalse',
  'startsWith',
  'endsWith',
  'contains',
  'lower',
  'upper',
  'trim',
  'length',
  'substring',
  'indexOf',
  'toString',
  'toInteger',
  'toDecimal',
  'toDate',
  'toDateTime',
  'toQuantity',
  'toBoolean',
  'convertsToString',
  'convertsToInteger',
  'convertsToDecimal',
  'convertsToDate',
  'convertsToDateTime',
  'convertsToQuantity',
  'convertsToBoolean',
]);

/** Variables that hold the whole resource: inside an argument they are reread for every item. */
const wholeResourceVariables = new Set(['resource', 'rootResource', 'context']);

interface AstNode {
  type: string;
  text?: string;
  children?: AstNode[];
}

/**
 * Why `expression` may not be a project's SearchParameter expression, or undefined when it may.
 * Runs once when the parameter is saved or loaded, never per write.
 */
export function searchExpressionProblem(
  expression: string,
  limits: SearchExpressionLimits = searchExpressionLimits,
): string | undefined {
  // Before parsing: the parser's work (and the compiled path's, compiledPath.ts) grows with the text.
  if (expression.length > limits.maxLength) {
    return `The expression is ${expression.length} characters long; at most ${limits.maxLength} are allowed`;
  }
  let root: AstNode;
  try {
    root = fhirpath.parse(expression) as AstNode;
  } catch {
    // Syntax errors are reported by the SearchParameter's validation with the parser's message.
    return undefined;
  }
  // Depth first without recursion: a long union chain is a deep tree.
  const stack: { node: AstNode; nesting: number }[] = [{ node: root, nesting: 0 }];
  while (stack.length > 0) {
    const { node, nesting } = stack.pop() as { node: AstNode; nesting: number };
    let inner = nesting;
    if (node.type === 'FunctionInvocation') {
      const name = node.text ?? '';
      if (!boundedFunctions.has(name)) {
        return `The function ${name}() is not allowed in a search parameter: its cost is not bounded by the resource's size (allowed: ${[...boundedFunctions].join(', ')})`;
      }
    } else if (node.type === 'ParamList') {
      inner = nesting + 1;
      if (inner > limits.maxArgumentNesting) {
        return `Function arguments are nested more than ${limits.maxArgumentNesting} levels deep`;
      }
    } else if (node.type === 'ExternalConstantTerm' && nesting > 0 && wholeResourceVariables.has(node.text ?? '')) {
      return `%${node.text} may not be used inside a function's arguments: it would read the whole resource again for every item`;
    }
    for (const child of node.children ?? []) stack.push({ node: child, nesting: inner });
  }
  return undefined;
}

/** The issues of a SearchParameter's expression and its composite components' (400 on write). */
export function searchParameterCostIssues(parameter: SearchParameter): OperationOutcomeIssue[] {
  const issues: OperationOutcomeIssue[] = [];
  const check = (expression: unknown, path: string) => {
    if (typeof expression !== 'string') return;
    const problem = searchExpressionProblem(expression);
    if (problem) issues.push({ severity: 'error', code: 'too-costly', details: { text: problem }, expression: [path] });
  };
  check(parameter.expression, 'SearchParameter.expression');
  const components = parameter.component ?? [];
  if (components.length > searchExpressionLimits.maxComponents) {
    issues.push({
      severity: 'error',
      code: 'too-costly',
      details: {
        text: `A composite may have at most ${searchExpressionLimits.maxComponents} components (it has ${components.length})`,
      },
      expression: ['SearchParameter.component'],
    });
    return issues;
  }
  components.forEach((component, index) =>
    check(component.expression, `SearchParameter.component[${index}].expression`),
  );
  return issues;
}
