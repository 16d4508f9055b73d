import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { FhirError, outcomeOf } from '../fhir/fhirError';
import { jsonPathExpression } from '../fhir/jsonInputCheck';
import type { IndexRowsCheck } from '../search/indexRows';

/**
 * What one resource may cost to validate and store, whoever writes it (REST, batch and transaction
 * entries, patches, GraphQL, `$validate`). The body limit (MAX_BODY_BYTES, 64 MiB) alone let one
 * self-registered user stall every project: a Patient with 200,000 names (4 MB) took 108 s, almost
 * all of it the database inserting its 600,000 search index rows — each index table finds a
 * resource's rows through a hash index on `resource_id`, and rows sharing one id share one bucket
 * chain that every insert walks, so the insert grows with the square of one resource's rows
 * (storage/migrations.ts, docs/performance.md). On the embedded database that statement also holds
 * the event loop. A single 20 MB string took 7.5 s (it is parsed as JSON and as index text several
 * times over). Each limit answers 413 with an OperationOutcome naming it and the path.
 *
 * The defaults keep several times the largest resource the server loads or imports (measured over
 * the definitions it loads and shared/data/synthea-r4): values 19,245, JSON 1.34 MB, index values
 * 6,412 and index text 46 k characters (all ValueSet/c80-doc-typecodes); the longest string 870,100
 * characters (that ValueSet's narrative), the longest other string 2,599. Synthea's largest resource
 * has 1,895 values, 48 kB of JSON and 36 index values.
 *
 * The resource counts as sent, without the `id` the server assigns (hasServerId); its `meta` counts
 * (it is stored, and a client may fill it): an update sent with the `meta` it was read with carries
 * the server's few hundred bytes of it.
 */
export interface ResourceLimits {
  /**
   * Bytes of the resource as compact JSON (RESOURCE_MAX_BYTES). 4 MiB: three times the largest
   * loaded definition; an Attachment may carry about 3 MB of inline `data` — a larger file belongs
   * in a Binary (POST /fhir/R4/Binary, BINARY_MAX_BYTES, stored outside the database), which is how
   * the app stores uploads.
   */
  maxBytes: number;
  /**
   * JSON values — objects, arrays, strings, numbers, booleans — in the resource, itself included
   * (RESOURCE_MAX_ELEMENTS). 100,000: five times the largest loaded definition; each costs parsing,
   * schema and primitive validation, index extraction and serialisation.
   */
  maxElements: number;
  /**
   * Characters of one string (RESOURCE_MAX_STRING_LENGTH): 1,048,576, FHIR's own bound ("FHIR
   * strings SHALL NOT exceed 1MB", StructureDefinition/string `maxLength`). base64Binary values
   * (`Attachment.data`…) and the narrative's xhtml are not FHIR strings: RESOURCE_MAX_BYTES bounds them.
   */
  maxStringLength: number;
  /**
   * Search index values (rows of the search_* tables) the resource gives (RESOURCE_MAX_INDEX_VALUES).
   * 10,000: half again the largest loaded definition (6,412). The cost of inserting one resource's
   * rows into one table grows with the square of their number (see above): 10,000 cost about a
   * quarter of 20,000 (~0.6 s on the embedded database).
   */
  maxIndexValues: number;
  /**
   * Characters of text in those index values (RESOURCE_MAX_INDEX_TEXT). 1,048,576: twenty times the
   * largest loaded definition's. A string element indexed by several parameters is stored once per
   * parameter (and normalised again): a 1 MB name is 6 MB of index text.
   */
  maxIndexText: number;
}

export const defaultResourceLimits: Readonly<ResourceLimits> = Object.freeze({
  maxBytes: 4 * 1024 * 1024,
  maxElements: 100_000,
  maxStringLength: 1024 * 1024,
  maxIndexValues: 10_000,
  maxIndexText: 1024 * 1024,
});

/** The environment variable of each limit (config/serverConfig.ts reads them). */
export const resourceLimitVariables: Readonly<Record<keyof ResourceLimits, string>> = Object.freeze({
  maxBytes: 'RESOURCE_MAX_BYTES',
  maxElements: 'RESOURCE_MAX_ELEMENTS',
  maxStringLength: 'RESOURCE_MAX_STRING_LENGTH',
  maxIndexValues: 'RESOURCE_MAX_INDEX_VALUES',
  maxIndexText: 'RESOURCE_MAX_INDEX_TEXT',
});

let current: Readonly<ResourceLimits> = defaultResourceLimits;

/** Sets the limits of this process (the server's configuration, at start). */
export function configureResourceLimits(limits: Readonly<ResourceLimits>): void {
  current = Object.freeze({ ...limits });
}

/** The limits in force in this process. */
export function resourceLimits(): Readonly<ResourceLimits> {
  return current;
}

/**
 * The body limit of the routes whose body is one resource (create, update, patch): twice
 * RESOURCE_MAX_BYTES, for indentation and escapes (the largest loaded definition is 1.24 times its
 * compact size when indented by two spaces), and never more than MAX_BODY_BYTES. Parsing a body
 * costs in proportion to its size before any limit of a resource can be checked: the 64 MiB that
 * a batch may have would take seconds of one request's parsing for a resource refused afterwards.
 */
export function resourceBodyLimit(maxBodyBytes: number, limits: Readonly<ResourceLimits> = current): number {
  return Math.min(maxBodyBytes, 2 * limits.maxBytes);
}

/**
 * Elements whose values are base64Binary or xhtml, not FHIR strings (no 1 MB rule): by property
 * name, as the FHIR JSON schema names them (resourceLimits.unit.test.ts checks the list against
 * it). `data` is also SampledData's string of samples; that one is bounded by the bytes limit too.
 */
const unboundedStringKeys = new Set(['data', 'hash', 'query', 'carrierAIDC', 'div']);

function isUnboundedStringKey(key: string | undefined): boolean {
  // Choice elements and ElementDefinition's fixed/pattern/default/example values: valueBase64Binary…
  return key !== undefined && (unboundedStringKeys.has(key) || key.endsWith('Base64Binary'));
}

interface Frame {
  value: unknown;
  parent?: Frame;
  /** The key or array index under which this value sits in its parent. */
  step?: string | number;
  /** The property the value belongs to (for an array item, the array's). */
  key?: string;
}

function stepsOf(frame: Frame): (string | number)[] {
  const steps: (string | number)[] = [];
  for (let at: Frame | undefined = frame; at?.step !== undefined; at = at.parent) steps.push(at.step);
  return steps.reverse();
}

function tooLarge(code: OperationOutcomeIssue['code'], text: string, expression: string): FhirError {
  return new FhirError(413, outcomeOf([{ severity: 'error', code, details: { text }, expression: [expression] }]));
}

/**
 * 413 when `resource` (parsed JSON) is larger than the limits allow: more values, more bytes, or a
 * longer string, with the path where a limit is first passed (in document order) as the outcome's
 * expression. `root` names the resource in paths (its type by default; `Bundle.entry[3].resource`
 * for an entry). Cheap — no copy, no serialisation, no recursion: run before anything else looks
 * at a write, and again where a resource is validated.
 */
export function checkResourceLimits(
  resource: unknown,
  root?: string,
  limits: Readonly<ResourceLimits> = current,
): void {
  if (!withinLimitsSurely(resource, limits)) checkExactly(resource, root, limits);
}

/**
 * The common case in one light pass (no paths, no byte counting): true when the resource is surely
 * within the limits, taking 3 bytes for every UTF-16 unit of text (UTF-8 never needs more) and 24
 * for a number (the longest a double prints). False sends it to the exact pass, which finds out
 * and names the path. Over the Synthea resources it is a sixth of the exact pass (53 against 320
 * ns a value on a busy machine), less than half of the body's jsonInputCheck walk.
 */
function withinLimitsSurely(resource: unknown, limits: Readonly<ResourceLimits>): boolean {
  let elements = 0;
  let units = 0;
  let structure = 0;
  const stack: unknown[] = [resource];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === resource && isPlainObject(value) && hasServerId(value)) {
      // The resource itself, its id left out (serverAssignedId).
      elements++;
      structure += 2;
      for (const key in value) {
        if (key === 'id') continue;
        units += key.length;
        structure += 4;
        stack.push(value[key]);
      }
      continue;
    }
    if (++elements > limits.maxElements) return false;
    if (typeof value === 'string') {
      // A longer string may still be base64Binary or xhtml: the exact pass knows its element.
      if (value.length > limits.maxStringLength) return false;
      units += value.length;
      structure += 2;
    } else if (typeof value !== 'object' || value === null) {
      structure += 24;
    } else if (Array.isArray(value)) {
      structure += 2 + value.length;
      for (let index = 0; index < value.length; index++) stack.push(value[index]);
    } else {
      structure += 2;
      for (const key in value) {
        units += key.length;
        structure += 4;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return 3 * units + structure <= limits.maxBytes;
}

function checkExactly(resource: unknown, root: string | undefined, limits: Readonly<ResourceLimits>): void {
  const name = root ?? rootName(resource);
  const where = (frame: Frame) => jsonPathExpression(name, stepsOf(frame));
  let elements = 0;
  let bytes = 0;
  const stack: Frame[] = [{ value: resource }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value } = frame;
    elements++;
    if (elements > limits.maxElements) {
      throw tooLarge(
        'too-costly',
        `${name} has more than ${limits.maxElements} elements (JSON values); at most ${limits.maxElements} are allowed (RESOURCE_MAX_ELEMENTS)`,
        where(frame),
      );
    }
    if (typeof value === 'string') {
      if (value.length > limits.maxStringLength && !isUnboundedStringKey(frame.key)) {
        throw tooLarge(
          'too-long',
          `The string is ${value.length} characters long; at most ${limits.maxStringLength} are allowed (RESOURCE_MAX_STRING_LENGTH)`,
          where(frame),
        );
      }
      // Quotes; escapes are not counted (JSON text may be longer, the stored value is not).
      bytes += Buffer.byteLength(value, 'utf8') + 2;
    } else if (typeof value === 'number') {
      bytes += String(value).length;
    } else if (typeof value === 'boolean') {
      bytes += value ? 4 : 5;
    } else if (value === null || typeof value !== 'object') {
      bytes += 4;
    } else if (Array.isArray(value)) {
      bytes += 1 + Math.max(value.length, 1);
      for (let index = value.length - 1; index >= 0; index--) {
        stack.push({ value: value[index], parent: frame, step: index, key: frame.key });
      }
    } else {
      bytes += 1;
      const keys: string[] = [];
      const skipId = frame.parent === undefined && hasServerId(value as Record<string, unknown>);
      // Parsed JSON: `for…in` sees the same own keys as Object.keys.
      for (const key in value) {
        if (skipId && key === 'id') continue;
        keys.push(key);
        // "key": and a comma or the closing brace.
        bytes += Buffer.byteLength(key, 'utf8') + 4;
      }
      if (keys.length === 0) bytes += 1;
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index];
        stack.push({ value: (value as Record<string, unknown>)[key], parent: frame, step: key, key });
      }
    }
    if (bytes > limits.maxBytes) {
      throw tooLarge(
        'too-long',
        `${name} is larger than ${limits.maxBytes} bytes as JSON; at most ${limits.maxBytes} are allowed (RESOURCE_MAX_BYTES). A large file belongs in a Binary (POST /fhir/R4/Binary), referenced from Attachment.url`,
        where(frame),
      );
    }
  }
}

/**
 * The resource's own `id` is left out of the counts when it has the shape of a FHIR id (at most 64
 * characters): the server assigns it on create, after the request's body was checked, so a body
 * that was within the limits stays within them. Any other `id` counts.
 */
function hasServerId(resource: Record<string, unknown>): boolean {
  const id = resource.id;
  return typeof id === 'string' && id.length <= 64;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rootName(resource: unknown): string {
  const type = (resource as { resourceType?: unknown } | null)?.resourceType;
  return typeof type === 'string' && /^[A-Z][A-Za-z]{0,63}$/.test(type) ? type : 'Resource';
}

/** Characters of text in one index row: every text field (the code too), and a composite's components'. */
function rowText(row: Record<string, unknown>): number {
  let length = 0;
  for (const key in row) {
    const field = row[key];
    if (typeof field === 'string') length += field.length;
    else if (Array.isArray(field)) {
      for (const component of field as Record<string, unknown>[]) {
        for (const part in component) {
          const text = component[part];
          if (typeof text === 'string') length += text.length;
        }
      }
    }
  }
  return length;
}

/**
 * For `extractIndexRows` of a write: counts the index values and their text as each parameter adds
 * them, and answers 413 naming the parameter (its code and expression) once either limit is passed —
 * before any of them reach the database.
 */
export function indexLimitCheck(resourceType: string, limits: Readonly<ResourceLimits> = current): IndexRowsCheck {
  let values = 0;
  let text = 0;
  return (parameter, table, start) => {
    const added = table.length - start;
    values += added;
    for (let index = start; index < table.length; index++) text += rowText(table[index]);
    if (values > limits.maxIndexValues) {
      throw tooLarge(
        'too-costly',
        `${resourceType} gives more than ${limits.maxIndexValues} search index values (${added} from the search parameter "${parameter.code}"); at most ${limits.maxIndexValues} are allowed (RESOURCE_MAX_INDEX_VALUES)`,
        parameter.expression,
      );
    }
    if (text > limits.maxIndexText) {
      throw tooLarge(
        'too-costly',
        `${resourceType} gives more than ${limits.maxIndexText} characters of search index text (the search parameter "${parameter.code}" passed it); at most ${limits.maxIndexText} are allowed (RESOURCE_MAX_INDEX_TEXT)`,
        parameter.expression,
      );
    }
  };
}
