import { errors } from '../fhir/fhirError';

/** One comparison of a `_filter` expression: `code op value`. */
export interface FilterComparison {
  code: string;
  op: FilterOperator;
  value: string;
}

const operators = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap'] as const;
export type FilterOperator = (typeof operators)[number];

/**
 * Parses the FHIR `_filter` parameter (search.html#_filter) as far as this server runs it: one or
 * more comparisons `param op value` joined by `and`, optionally in parentheses. Values may be
 * quoted ("…", with \" inside). `or`, `not` and nested paths are refused with a clear 400 rather
 * than run differently from what was asked.
 */
export function parseFilterExpression(expression: string): FilterComparison[] {
  const tokens = tokenize(expression);
  const comparisons: FilterComparison[] = [];
  let depth = 0;
  let index = 0;
  const next = () => tokens[index++];
  while (index < tokens.length) {
    let token = next();
    while (token?.kind === 'open') {
      depth++;
      token = next();
    }
    if (!token || token.kind !== 'word') throw invalid(expression, 'expected a search parameter');
    const lower = token.text.toLowerCase();
    if (lower === 'not') throw errors.notSupported('_filter: "not" is not supported yet');
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(token.text))
      throw errors.notSupported(`_filter: "${token.text}" is not a plain search parameter (paths are not supported)`);
    const op = next();
    if (!op || op.kind !== 'word' || !(operators as readonly string[]).includes(op.text.toLowerCase()))
      throw invalid(expression, `expected an operator (${operators.join(', ')}) after "${token.text}"`);
    const value = next();
    if (!value || value.kind === 'open' || value.kind === 'close')
      throw invalid(expression, `expected a value after "${op.text}"`);
    comparisons.push({ code: token.text, op: op.text.toLowerCase() as FilterOperator, value: value.text });
    let after = next();
    while (after?.kind === 'close') {
      depth--;
      if (depth < 0) throw invalid(expression, 'unbalanced parentheses');
      after = next();
    }
    if (!after) break;
    const joiner = after.kind === 'word' ? after.text.toLowerCase() : '';
    if (joiner === 'or')
      throw errors.notSupported('_filter: "or" is not supported yet; use a comma-separated value list instead');
    if (joiner !== 'and') throw invalid(expression, `expected "and" after a comparison, found "${after.text}"`);
  }
  if (depth !== 0) throw invalid(expression, 'unbalanced parentheses');
  if (comparisons.length === 0) throw invalid(expression, 'empty expression');
  return comparisons;
}

/**
 * The ordinary search parameter (key and value) a comparison means for a parameter of `type`, e.g.
 * `name eq Smith` → `name:exact=Smith`, `birthdate ge 2000-01-01` → `birthdate=ge2000-01-01`.
 */
export function comparisonAsParameter(comparison: FilterComparison, type: string): [string, string] {
  const { code, op, value } = comparison;
  const refuse = () => errors.notSupported(`_filter: "${op}" is not supported for ${code} (a ${type} parameter)`);
  switch (type) {
    case 'string':
      if (op === 'eq') return [`${code}:exact`, value];
      if (op === 'co') return [`${code}:contains`, value];
      if (op === 'sw') return [code, value];
      throw refuse();
    case 'token':
    case 'id':
      if (op === 'eq') return [code, value];
      if (op === 'ne') return [`${code}:not`, value];
      throw refuse();
    case 'reference':
    case 'uri':
      if (op === 'eq') return [code, value];
      throw refuse();
    case 'date':
    case 'lastUpdated':
    case 'number':
    case 'quantity':
      if (op === 'co' || op === 'sw' || op === 'ew') throw refuse();
      return [code, `${op}${value}`];
    default:
      throw refuse();
  }
}

type Token = { kind: 'word' | 'open' | 'close'; text: string };

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expression.length) {
    const char = expression[i];
    if (/\s/.test(char)) {
      i++;
    } else if (char === '(' || char === ')') {
      tokens.push({ kind: char === '(' ? 'open' : 'close', text: char });
      i++;
    } else if (char === '"') {
      let text = '';
      i++;
      while (i < expression.length && expression[i] !== '"') {
        if (expression[i] === '\\' && i + 1 < expression.length) i++;
        text += expression[i++];
      }
      if (i >= expression.length) throw invalid(expression, 'unterminated quoted value');
      i++;
      tokens.push({ kind: 'word', text });
    } else {
      let text = '';
      while (i < expression.length && !/[\s()]/.test(expression[i])) text += expression[i++];
      tokens.push({ kind: 'word', text });
    }
  }
  return tokens;
}

function invalid(expression: string, reason: string) {
  return errors.invalid(`Invalid _filter "${expression}": ${reason}`, '_filter');
}
