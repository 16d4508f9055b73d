import { randomUUID } from 'node:crypto';
import type { Bundle, BundleEntry, BundleEntryResponse, Resource } from '@medplum/fhirtypes';
import {
  conditionalDeleteOperation,
  conditionalUpdateOperation,
  conditionalUpdateTarget,
} from './conditionalOperations';
import { checkBundleEntryCount } from './bundleLimits';
import { checkResourceLimits } from '../validation/resourceLimits';
import { errors, FhirError, outcomeOf } from './fhirError';
import {
  conditionalMatch,
  createOperation,
  deleteOperation,
  historyOperation,
  patchOperation,
  queryFromString,
  readOperation,
  searchOperation,
  updateOperation,
  vreadOperation,
  type OperationEnvironment,
  type OperationResult,
} from './fhirOperations';
import type { Repository, RequestContext } from './repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';

export interface BundleEnvironment {
  repository: Repository;
  registry: SearchParameterRegistry;
  ctx: RequestContext;
  fhirBase: string;
  /**
   * Runs a batch's GET entry that is not a read, search or history (an operation such as
   * `ValueSet/$expand` or `Patient/{id}/$summary`) as a request of its own by the same caller, so
   * that it passes every check that request would; unset where no such request can be made.
   */
  forwardGet?: (relativeUrl: string) => Promise<ForwardedAnswer>;
}

/** What a forwarded GET answered: its status and its body parsed as JSON (undefined if it is not). */
export interface ForwardedAnswer {
  status: number;
  body: unknown;
}

/** FHIR's processing order inside a transaction: deletes, creates, updates and patches, then reads. */
const methodOrder: Record<string, number> = { DELETE: 0, POST: 1, PUT: 2, PATCH: 2, GET: 3, HEAD: 3 };

export async function processBundle(env: BundleEnvironment, body: unknown): Promise<Bundle> {
  if (typeof body !== 'object' || body === null || (body as Resource).resourceType !== 'Bundle') {
    throw errors.invalid('Expected a Bundle');
  }
  const bundle = body as Bundle;
  if (bundle.type !== 'batch' && bundle.type !== 'transaction') {
    throw errors.invalid(`Bundle type must be batch or transaction, not "${String(bundle.type)}"`, 'Bundle.type');
  }
  const entries: unknown = bundle.entry ?? [];
  if (!Array.isArray(entries)) throw errors.invalid('Bundle.entry must be a list of entries', 'Bundle.entry');
  // Before any entry is looked at: the cost of a Bundle grows with its entries, not its bytes.
  checkBundleEntryCount(entries.length);
  entries.forEach((entry: unknown, index) => checkEntry(entry, index));
  const checked = entries as BundleEntry[];
  // A transaction fails whole: each entry's resource against the size limits before the first runs
  // (413 naming it). A batch entry gets its own 413 (processBatch).
  if (bundle.type === 'transaction') checked.forEach(checkEntryLimits);
  return bundle.type === 'transaction' ? processTransaction(env, checked) : processBatch(env, checked);
}

/** 413 when the entry's resource is past the size limits (validation/resourceLimits.ts), naming the entry. */
function checkEntryLimits(entry: BundleEntry, index: number): void {
  if (entry.resource !== undefined) checkResourceLimits(entry.resource, `Bundle.entry[${index}].resource`);
}

function checkEntry(value: unknown, index: number): asserts value is BundleEntry {
  const path = `Bundle.entry[${index}]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw errors.invalid('An entry must be an object', path);
  }
  const entry = value as BundleEntry;
  if (typeof entry.request !== 'object' || entry.request === null)
    throw errors.invalid(`Missing request`, `${path}.request`);
  if (!entry.request.method) throw errors.invalid(`Missing request.method`, `${path}.request.method`);
  if (typeof entry.request.method !== 'string' || !Object.hasOwn(methodOrder, entry.request.method))
    throw errors.invalid(`Unsupported method ${String(entry.request.method)}`, `${path}.request.method`);
  if (typeof entry.request.url !== 'string' || entry.request.url.length === 0)
    throw errors.invalid('Missing request.url', `${path}.request.url`);
  if ((entry.request.method === 'POST' || entry.request.method === 'PUT') && !entry.resource) {
    throw errors.invalid('Missing resource', `${path}.resource`);
  }
}

async function processTransaction(env: BundleEnvironment, entries: BundleEntry[]): Promise<Bundle> {
  return env.repository.transaction(async (session) => {
    const opEnv: OperationEnvironment = { session, ctx: env.ctx, registry: session.registry, fhirBase: env.fhirBase };
    const references = new Map<string, string>();
    const assigned = new Map<number, Assigned>();
    // Conditional entries that matched nothing, by their criteria: a second one would create the
    // same resource twice (each was resolved against what was stored before this Bundle).
    const creatingCriteria = new Map<string, number>();
    const createsOnce = (index: number, resourceType: string, criteria: string) => {
      const key = `${resourceType}?${canonicalCriteria(criteria)}`;
      const earlier = creatingCriteria.get(key);
      if (earlier !== undefined) {
        throw errors.invalid(
          `Entries ${earlier} and ${index} have the same conditional criteria (${key}): both would create the same resource`,
          `Bundle.entry[${index}].request`,
        );
      }
      creatingCriteria.set(key, index);
    };

    // Ids first, so that every entry can point at every other before anything is written.
    for (const [index, entry] of entries.entries()) {
      const request = entry.request!;
      const { resourceType, id: urlId, query } = parseUrl(request.url, env.fhirBase);
      if (request.method === 'POST' && resourceType) {
        if (request.ifNoneExist) {
          const existing = await withEntryPath(index, () =>
            conditionalMatch(opEnv, resourceType, request.ifNoneExist!),
          );
          if (existing) {
            assigned.set(index, { existing });
            if (entry.fullUrl) references.set(entry.fullUrl, `${resourceType}/${existing.id}`);
            continue;
          }
          createsOnce(index, resourceType, request.ifNoneExist);
        }
        const id = randomUUID();
        assigned.set(index, { id });
        if (entry.fullUrl) references.set(entry.fullUrl, `${resourceType}/${id}`);
      } else if (request.method === 'PUT' && resourceType) {
        if (urlId) {
          if (entry.fullUrl?.startsWith('urn:')) references.set(entry.fullUrl, `${resourceType}/${urlId}`);
          continue;
        }
        // Conditional update: which resource it is about is decided now, against what was stored
        // before this Bundle (as for conditional creates), so that other entries can point at it.
        const target = await withEntryPath(index, () =>
          conditionalUpdateTarget(opEnv, resourceType, query, entry.resource),
        );
        // No match and no id of its own: a create with an id drawn now (update-as-create by a
        // client-chosen id is for super admins only).
        if (target === undefined) createsOnce(index, resourceType, request.url);
        const id = target ?? randomUUID();
        assigned.set(index, target === undefined ? { id, create: true } : { id });
        if (entry.fullUrl) references.set(entry.fullUrl, `${resourceType}/${id}`);
      }
    }

    const order = entries
      .map((_, index) => index)
      .sort((a, b) => methodOrder[entries[a].request!.method!] - methodOrder[entries[b].request!.method!] || a - b);
    const responses: BundleEntry[] = new Array(entries.length);
    for (const [done, index] of order.entries()) {
      // Give the event loop back now and then: a large Bundle's entries are prepared without any
      // I/O, and other callers' requests (a clinician opening a chart) would wait for all of them.
      if (done > 0 && done % 32 === 0) await new Promise((resolve) => setImmediate(resolve));
      const entry = entries[index];
      const resolved = entry.resource ? (rewriteReferences(entry.resource, references) as Resource) : undefined;
      const result = await withEntryPath(index, () =>
        runEntry(opEnv, { ...entry, resource: resolved }, assigned.get(index), references),
      );
      responses[index] = toResponseEntry(result, env.fhirBase);
    }
    return { resourceType: 'Bundle', type: 'transaction-response', entry: responses } as Bundle;
  }, env.ctx.access);
}

async function processBatch(env: BundleEnvironment, entries: BundleEntry[]): Promise<Bundle> {
  const responses: BundleEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    try {
      // Before the entry's transaction: a resource past the size limits holds nothing.
      checkEntryLimits(entry, index);
      if (isForwardedGet(entry, env.fhirBase)) {
        responses.push(await forwardedEntry(env, entry.request!.url));
        continue;
      }
      // Each batch entry succeeds or fails on its own, in its own transaction.
      const result = await env.repository.transaction(
        (session) =>
          runEntry({ session, ctx: env.ctx, registry: session.registry, fhirBase: env.fhirBase }, entry, undefined),
        env.ctx.access,
      );
      responses.push(toResponseEntry(result, env.fhirBase));
    } catch (error) {
      if (!(error instanceof FhirError)) throw error;
      responses.push({ response: { status: String(error.status), outcome: error.outcome } });
    }
  }
  return { resourceType: 'Bundle', type: 'batch-response', entry: responses } as Bundle;
}

/** A GET or HEAD entry whose URL is an operation or another request than a read, search or history. */
function isForwardedGet(entry: BundleEntry, fhirBase: string): boolean {
  const method = entry.request?.method;
  return (method === 'GET' || method === 'HEAD') && !parseUrl(entry.request!.url, fhirBase).plain;
}

async function forwardedEntry(env: BundleEnvironment, url: string): Promise<BundleEntry> {
  const relative = forwardableUrl(url, env.fhirBase);
  if (!env.forwardGet) throw errors.invalid(`${url}: only reads, searches and history can run here`);
  const answer = await env.forwardGet(relative);
  const body = answer.body as Resource | undefined;
  if (answer.status >= 400) {
    const outcome = body?.resourceType === 'OperationOutcome' ? body : outcomeOf([]);
    return { response: { status: String(answer.status), outcome } };
  }
  if (!body?.resourceType) {
    return {
      response: {
        status: '400',
        outcome: errors.invalid(`${url} does not answer a FHIR resource; request it on its own`).outcome,
      },
    };
  }
  return toResponseEntry({ status: answer.status, resource: body }, env.fhirBase);
}

// A forwarded URL becomes a path under the FHIR base on this server: only plain segments (a type, an
// id, an `$operation`, `_history`), never `..`, an encoded character or another host.
const FORWARDABLE_SEGMENT = /^(?:[A-Za-z0-9\-.]{1,64}|\$[a-z][a-z-]{0,63}|_history)$/;

function forwardableUrl(url: string, fhirBase: string): string {
  const relative = url.startsWith(fhirBase) ? url.slice(fhirBase.length) : url.replace(/^\//, '');
  const [path, query] = relative.split(/\?(.*)/s, 2);
  const segments = path.split('/');
  if (
    segments.length > 4 ||
    !segments.every((segment) => FORWARDABLE_SEGMENT.test(segment) && segment !== '..' && segment !== '.')
  ) {
    throw errors.invalid(`${url} is not a request this server answers inside a batch`, 'Bundle.entry.request.url');
  }
  return query ? `${path}?${query}` : path;
}

/**
 * What a transaction decided for an entry before writing: the id of a create (or of a conditional
 * update's target), or the resource a conditional create matched.
 */
interface Assigned {
  id?: string;
  existing?: Resource;
  /** A conditional update that matched nothing: created with `id`. */
  create?: boolean;
}

async function runEntry(
  env: OperationEnvironment,
  entry: BundleEntry,
  assigned: Assigned | undefined,
  /** A transaction's fullUrls and the ids they were given: a PATCH's values may name them too. */
  references: ReadonlyMap<string, string> = new Map(),
): Promise<OperationResult> {
  const request = entry.request!;
  const { resourceType, id, versionId, history, query, plain } = parseUrl(request.url, env.fhirBase);
  if (!plain) {
    // A batch forwarded its operations before this point; a transaction's reads see its own writes,
    // which an operation run as a request of its own would not.
    throw errors.invalid(
      request.method === 'GET' || request.method === 'HEAD'
        ? `${request.url}: operations cannot run inside a transaction; send them in a batch`
        : `Unsupported request ${request.method} ${request.url}`,
    );
  }
  switch (request.method) {
    case 'GET':
    case 'HEAD':
      if (history) return historyOperation(env, query, resourceType, id);
      if (resourceType && id && versionId) return vreadOperation(env, resourceType, id, versionId);
      if (resourceType && id) return readOperation(env, resourceType, id);
      if (resourceType) return searchOperation(env, resourceType, query);
      break;
    case 'POST':
      if (resourceType && !id) {
        if (assigned?.existing) return { status: 200, resource: assigned.existing };
        return createOperation(
          env,
          resourceType,
          entry.resource,
          assigned ? undefined : request.ifNoneExist,
          assigned?.id,
        );
      }
      break;
    case 'PUT':
      if (resourceType && id) return updateOperation(env, resourceType, id, entry.resource, request.ifMatch);
      // A transaction resolved its conditional updates up front; a batch entry resolves its own.
      if (resourceType && assigned?.id) {
        if (assigned.create) return createOperation(env, resourceType, entry.resource, undefined, assigned.id);
        return updateOperation(env, resourceType, assigned.id, entry.resource, request.ifMatch);
      }
      if (resourceType) return conditionalUpdateOperation(env, resourceType, query, entry.resource, request.ifMatch);
      break;
    case 'PATCH':
      if (resourceType && id) {
        // The patch is base64 inside a Binary, out of reach of the rewrite of the entry's resource:
        // a value naming a resource created in the same transaction (a Task's output naming the
        // response just filled) gets its id here.
        const patch = rewriteReferences(patchBody(entry.resource), references);
        return patchOperation(env, resourceType, id, patch, request.ifMatch);
      }
      break;
    case 'DELETE':
      if (resourceType && id) return deleteOperation(env, resourceType, id);
      if (resourceType) return conditionalDeleteOperation(env, resourceType, query);
      break;
  }
  throw errors.invalid(`Unsupported request ${request.method} ${request.url}`);
}

/**
 * Criteria in one spelling whatever the order of their parameters (`a=1&b=2` is `b=2&a=1`); a
 * request URL's path before `?` is left out.
 */
function canonicalCriteria(criteria: string): string {
  const pairs = [...new URLSearchParams(criteria.replace(/^[^?]*\?/, ''))];
  // Each pair encoded alone, then sorted: any fixed order makes the same criteria one string.
  return pairs
    .map((pair) => new URLSearchParams([pair]).toString())
    .sort()
    .join('&');
}

/** In a Bundle, a JSON Patch travels as a Binary whose data is the base64 patch document. */
function patchBody(resource: Resource | undefined): unknown {
  if (resource?.resourceType === 'Binary' && resource.data) {
    try {
      return JSON.parse(Buffer.from(resource.data, 'base64').toString('utf8'));
    } catch {
      throw errors.invalid('The Binary of a PATCH entry does not hold a JSON Patch');
    }
  }
  throw errors.invalid('A PATCH entry needs a Binary resource with a JSON Patch (application/json-patch+json)');
}

interface ParsedUrl {
  resourceType?: string;
  id?: string;
  versionId?: string;
  history: boolean;
  query: Record<string, string | string[] | undefined>;
  /**
   * A search (`Type`), read (`Type/id`), history (`_history`, `Type/_history`, `Type/id/_history`)
   * or vread (`Type/id/_history/vid`): what the bundle processor runs itself. Anything else — an
   * operation, a compartment search — is not, and must never be read as one of those (before,
   * `Patient/1/$summary` answered the Patient).
   */
  plain: boolean;
}

const RESOURCE_TYPE = /^[A-Z][A-Za-z]+$/;

function isPlainPath(segments: readonly string[]): boolean {
  const [type, second, third, fourth] = segments;
  if (segments.length === 1 && type === '_history') return true;
  if (!type || !RESOURCE_TYPE.test(type)) return false;
  const isId = (segment: string | undefined) =>
    segment !== undefined && segment !== '_history' && !segment.startsWith('$');
  switch (segments.length) {
    case 1:
      return true;
    case 2:
      return second === '_history' || isId(second);
    case 3:
      return isId(second) && third === '_history';
    case 4:
      return isId(second) && third === '_history' && isId(fourth);
    default:
      return false;
  }
}

export function parseUrl(url: string, fhirBase: string): ParsedUrl {
  const relative = url.startsWith(fhirBase) ? url.slice(fhirBase.length) : url.replace(/^\//, '');
  const [path, queryString = ''] = relative.split('?', 2);
  const segments = path.split('/').filter((s) => s.length > 0);
  const historyIndex = segments.indexOf('_history');
  return {
    resourceType: segments[0] && segments[0] !== '_history' ? segments[0] : undefined,
    id: segments[1] && segments[1] !== '_history' ? segments[1] : undefined,
    versionId: historyIndex >= 0 ? segments[historyIndex + 1] : undefined,
    history: historyIndex >= 0 && segments[historyIndex + 1] === undefined,
    query: queryFromString(queryString),
    plain: isPlainPath(segments),
  };
}

/**
 * Replaces `urn:uuid:` (and other fullUrl) references by the ids assigned in this transaction.
 * Copies only the objects on the way to a replaced reference; the rest is shared with the request
 * (a whole copy of every entry was a good part of an import's garbage).
 */
export function rewriteReferences(value: unknown, references: ReadonlyMap<string, string>): unknown {
  if (references.size === 0 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = rewriteReferences(value[i], references);
      if (next !== value[i]) (copy ??= [...value])[i] = next;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = (value as Record<string, unknown>)[key];
    const next =
      key === 'reference' && typeof child === 'string'
        ? (references.get(child) ?? child)
        : rewriteReferences(child, references);
    if (next !== child) (copy ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return copy ?? value;
}

async function withEntryPath<T>(index: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FhirError) {
      // Say which entry failed: the whole transaction is rolled back because of it.
      const issues = (error.outcome.issue ?? []).map((issue) => ({
        ...issue,
        expression: (issue.expression ?? ['']).map((e) =>
          `Bundle.entry[${index}]${e ? `.resource.${e.replace(/^[A-Z][A-Za-z]+\.?/, '')}` : ''}`.replace(/\.$/, ''),
        ),
      }));
      throw new FhirError(error.status, outcomeOf(issues));
    }
    throw error;
  }
}

function toResponseEntry(result: OperationResult, fhirBase: string): BundleEntry {
  const response: BundleEntryResponse = { status: String(result.status) };
  if (result.location) response.location = `${fhirBase}${result.location}`;
  if (result.resource?.meta?.versionId && result.resource.resourceType !== 'Bundle') {
    response.etag = `W/"${result.resource.meta.versionId}"`;
    response.lastModified = result.resource.meta.lastUpdated;
  }
  if (result.outcome) response.outcome = result.outcome;
  const entry: BundleEntry = { response };
  if (result.resource) {
    entry.resource = result.resource;
    if (result.resource.id && result.resource.resourceType !== 'Bundle') {
      entry.fullUrl = `${fhirBase}${result.resource.resourceType}/${result.resource.id}`;
    }
  }
  return entry;
}
