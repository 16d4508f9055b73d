import { errors } from './fhirError';

/**
 * The deepest nesting of objects and arrays a JSON request body may have. FHIR resources (even a
 * Bundle of Questionnaires with nested items) stay far below it; every recursive walk of a body in
 * the server (reference rewriting, validation, patches) is then bounded.
 */
export const maxJsonDepth = 100;

/**
 * NUL (PostgreSQL text and jsonb cannot hold it) and UTF-16 surrogates that are not part of a pair
 * (they have no UTF-8 encoding): neither can be stored, so both are refused as input.
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a string, or undefined when it can be stored. */
export function unstorableCharacter(value: string): string | undefined {
  const match = unstorable.exec(value);
  if (!match) return undefined;
  return match[0] === '\u0000'
    ? 'a NUL character (\\u0000)'
    : `an unpaired UTF-16 surrogate (\\u${match[0].charCodeAt(0).toString(16)})`;
}

/** 400 for a text value (search value, route parameter) that cannot be stored; `expression` names it. */
export function checkStorableText(value: string, expression: string): void {
  const problem = unstorableCharacter(value);
  if (problem) throw errors.invalid(`Invalid value: ${problem} is not allowed`, expression);
}

interface Frame {
  value: unknown;
  depth: number;
  parent?: Frame;
  /** The key or array index under which this value sits in its parent. */
  step?: string | number;
}

/**
 * Checks a parsed JSON body without recursion (it may be nested arbitrarily deep): 400 when it is
 * nested deeper than `maxJsonDepth`, or when a string or a key holds a character that cannot be
 * stored, with the element's path (`Patient.name[0].given[0]` for a resource) as the expression.
 */
export function checkJsonInput(body: unknown): void {
  const root = rootName(body);
  const stack: Frame[] = [{ value: body, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value } = frame;
    if (typeof value === 'string') {
      const problem = unstorableCharacter(value);
      if (problem) throw errors.invalid(`Invalid string: ${problem} is not allowed`, pathOf(frame, root));
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const depth = frame.depth + 1;
    if (depth > maxJsonDepth) {
      throw errors.invalid(`The JSON is nested more than ${maxJsonDepth} levels deep`, pathOf(frame, root));
    }
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        stack.push({ value: value[index], depth, parent: frame, step: index });
      }
      continue;
    }
    // Parsed JSON: `for…in` sees the same own keys as Object.entries without building its arrays.
    for (const key in value) {
      const problem = unstorableCharacter(key);
      if (problem) throw errors.invalid(`Invalid property name: ${problem} is not allowed`, pathOf(frame, root));
      stack.push({ value: (value as Record<string, unknown>)[key], depth, parent: frame, step: key });
    }
  }
}

/** A FHIR resource's paths start with its type; other JSON (GraphQL, JSON Patch) with `$`. */
function rootName(body: unknown): string {
  const type = (body as { resourceType?: unknown } | null)?.resourceType;
  return typeof type === 'string' && /^[A-Z][A-Za-z]{0,63}$/.test(type) ? type : '$';
}

function pathOf(frame: Frame, root: string): string {
  const steps: (string | number)[] = [];
  for (let at: Frame | undefined = frame; at?.step !== undefined; at = at.parent) steps.push(at.step);
  return jsonPathExpression(root, steps.reverse());
}

/** `Patient.name[0].given[1]` from the root's name and the keys and indexes below it (odd keys quoted). */
export function jsonPathExpression(root: string, steps: readonly (string | number)[]): string {
  let path = root;
  for (const step of steps) {
    if (typeof step === 'number') path += `[${step}]`;
    else path += /^[A-Za-z_][A-Za-z0-9_]*$/.test(step) ? `.${step}` : `[${JSON.stringify(step)}]`;
  }
  return path;
}
