import { errors, FhirError } from './fhirError';

export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

type Container = Record<string, unknown> | unknown[];

const operations = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Checks that `body` is a JSON Patch document and returns its operations. */
export function parsePatch(body: unknown): PatchOperation[] {
  if (!Array.isArray(body)) throw errors.invalid('A JSON Patch must be an array of operations');
  return body.map((operation, index) => {
    const where = `[${index}]`;
    if (typeof operation !== 'object' || operation === null)
      throw errors.invalid(`Patch operation ${where} is not an object`, where);
    const op = operation as Record<string, unknown>;
    if (typeof op.op !== 'string' || !operations.has(op.op))
      throw errors.invalid(`Patch operation ${where} has an unknown op "${String(op.op)}"`, `${where}.op`);
    if (typeof op.path !== 'string') throw errors.invalid(`Patch operation ${where} needs a path`, `${where}.path`);
    if ((op.op === 'move' || op.op === 'copy') && typeof op.from !== 'string') {
      throw errors.invalid(`Patch operation ${where} (${op.op}) needs "from"`, `${where}.from`);
    }
    if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && !('value' in op)) {
      throw errors.invalid(`Patch operation ${where} (${op.op}) needs "value"`, `${where}.value`);
    }
    return op as unknown as PatchOperation;
  });
}

/**
 * Applies `patch` to a copy of `document` (RFC 6902). A failed `test` throws 412 so that callers
 * can tell "someone else changed it" from a malformed patch (400).
 */
export function applyPatch<T>(document: T, patch: readonly PatchOperation[]): T {
  let root = structuredClone(document) as unknown;
  patch.forEach((operation, index) => {
    root = applyOne(root, operation, index);
  });
  return root as T;
}

function applyOne(root: unknown, operation: PatchOperation, index: number): unknown {
  const fail = (text: string): FhirError =>
    errors.invalid(`Patch operation [${index}] (${operation.op} ${operation.path}): ${text}`, `[${index}]`);
  switch (operation.op) {
    case 'test': {
      const actual = getValue(root, parsePointer(operation.path, fail), fail);
      if (!deepEqual(actual, operation.value)) {
        throw errors.preconditionFailed(`Test failed: ${operation.path} is not ${JSON.stringify(operation.value)}`);
      }
      return root;
    }
    case 'add':
      return addValue(root, parsePointer(operation.path, fail), structuredClone(operation.value), fail);
    case 'remove':
      return removeValue(root, parsePointer(operation.path, fail), fail).root;
    case 'replace': {
      const tokens = parsePointer(operation.path, fail);
      if (tokens.length === 0) return structuredClone(operation.value);
      getValue(root, tokens, fail);
      const removed = removeValue(root, tokens, fail).root;
      return addValue(removed, tokens, structuredClone(operation.value), fail);
    }
    case 'move': {
      const from = parsePointer(operation.from as string, fail);
      const to = parsePointer(operation.path, fail);
      if (to.length > from.length && from.every((t, i) => t === to[i])) throw fail('cannot move a value into itself');
      const { root: without, value } = removeValue(root, from, fail);
      return addValue(without, to, value, fail);
    }
    case 'copy': {
      const value = getValue(root, parsePointer(operation.from as string, fail), fail);
      return addValue(root, parsePointer(operation.path, fail), structuredClone(value), fail);
    }
  }
}

function parsePointer(pointer: string, fail: (text: string) => FhirError): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw fail('a path must start with "/"');
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function arrayIndex(array: unknown[], token: string, allowEnd: boolean, fail: (text: string) => FhirError): number {
  if (allowEnd && token === '-') return array.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw fail(`"${token}" is not an array index`);
  const index = Number(token);
  if (index > array.length || (!allowEnd && index === array.length)) throw fail(`index ${index} is out of bounds`);
  return index;
}

function parentOf(root: unknown, tokens: string[], fail: (text: string) => FhirError): Container {
  const parent = getValue(root, tokens.slice(0, -1), fail);
  if (!isContainer(parent)) throw fail('the parent of the path is not an object or array');
  return parent;
}

function getValue(root: unknown, tokens: string[], fail: (text: string) => FhirError): unknown {
  let current = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      current = current[arrayIndex(current, token, false, fail)];
    } else if (isContainer(current) && Object.prototype.hasOwnProperty.call(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      throw fail('the path does not exist');
    }
  }
  return current;
}

function addValue(root: unknown, tokens: string[], value: unknown, fail: (text: string) => FhirError): unknown {
  if (tokens.length === 0) return value;
  const parent = parentOf(root, tokens, fail);
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true, fail), 0, value);
  else parent[key] = value;
  return root;
}

function removeValue(
  root: unknown,
  tokens: string[],
  fail: (text: string) => FhirError,
): { root: unknown; value: unknown } {
  if (tokens.length === 0) throw fail('cannot remove the whole document');
  const parent = parentOf(root, tokens, fail);
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const [value] = parent.splice(arrayIndex(parent, key, false, fail), 1);
    return { root, value };
  }
  if (!Object.prototype.hasOwnProperty.call(parent, key)) throw fail('the path does not exist');
  const value = parent[key];
  delete parent[key];
  return { root, value };
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (isContainer(a) && isContainer(b) && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => deepEqual(a[k], (b as Record<string, unknown>)[k]))
    );
  }
  return false;
}
