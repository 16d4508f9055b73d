/**
 * Which element paths a search parameter's FHIRPath expression reads, so that a search cannot be
 * used to probe a field an access policy hides (filter by it, sort by it, chain through it).
 * Deliberately over-approximating: an expression we cannot follow exactly counts as reading the
 * whole path up to where we lost it.
 */

/** The dotted element paths (relative to `resourceType`) an expression reads, e.g. `reasonCode`, `value`. */
export function expressionPaths(expression: string, resourceType: string): string[][] {
  return splitTopLevel(expression, '|')
    .map((part) => pathOf(part, resourceType))
    .filter((path) => path.length > 0);
}

/** The hidden fields (dotted paths) that `expression` reads. */
export function hiddenFieldsReadBy(
  expression: string,
  resourceType: string,
  hiddenFields: readonly string[],
): string[] {
  const paths = expressionPaths(expression, resourceType);
  return hiddenFields.filter((field) => {
    const hidden = field.split('.');
    return paths.some((path) => overlaps(path, hidden));
  });
}

/** One path is a prefix of the other: reading `identifier` reads `identifier.value` and the other way round. */
function overlaps(path: readonly string[], hidden: readonly string[]): boolean {
  const length = Math.min(path.length, hidden.length);
  for (let i = 0; i < length; i++) {
    if (!sameElement(path[i], hidden[i])) return false;
  }
  return true;
}

/** `value` (a choice element read through `as`) is the same element as `valueQuantity` and `value[x]`. */
function sameElement(read: string, hidden: string): boolean {
  const a = read.replace(/\[x\]$/, '');
  const b = hidden.replace(/\[x\]$/, '');
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.startsWith(short) && /^[A-Z]/.test(long.slice(short.length));
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (const char of text) {
    if (char === "'") quoted = !quoted;
    if (!quoted && char === '(') depth++;
    if (!quoted && char === ')') depth--;
    if (!quoted && depth === 0 && char === separator) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

/** Functions that leave the element path: what follows them is another resource. */
const pathEndingFunctions = new Set(['resolve']);

function pathOf(part: string, resourceType: string): string[] {
  // `(Observation.value as Quantity)` and `Observation.value is Quantity` read `value`.
  let text = part.trim();
  while (text.startsWith('(') && matchingParen(text, 0) === text.length - 1) text = text.slice(1, -1).trim();
  text = text.replace(/\s+(as|is)\s+[A-Za-z.]+\s*$/, '');
  text = text.replace(/^\(+/, '').replace(/\)+$/, '');
  const segments: string[] = [];
  let index = 0;
  while (index < text.length) {
    const match = /^\.?\s*([A-Za-z_][A-Za-z0-9_]*(?:\[x\])?)/.exec(text.slice(index));
    if (!match) break;
    const name = match[1];
    index += match[0].length;
    if (text[index] === '(') {
      // A function call: `where(…)`, `as(…)`, `ofType(…)`, `extension('…')` — skip its arguments.
      const close = matchingParen(text, index);
      index = close < 0 ? text.length : close + 1;
      if (pathEndingFunctions.has(name)) break;
      // `extension('url')` reads the extension element; other functions filter or cast in place.
      if (name === 'extension' || name === 'modifierExtension') segments.push(name);
      continue;
    }
    if (text[index] === '[') {
      const close = text.indexOf(']', index);
      index = close < 0 ? text.length : close + 1;
    }
    segments.push(name);
  }
  if (segments[0] === resourceType || segments[0] === 'Resource' || segments[0] === 'DomainResource') {
    segments.shift();
  }
  return segments;
}

function matchingParen(text: string, open: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const char = text[i];
    if (char === "'") quoted = !quoted;
    if (quoted) continue;
    if (char === '(') depth++;
    if (char === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
