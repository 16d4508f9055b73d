import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';
import type { Bundle, GraphDefinition, GraphDefinitionLink, Reference, Resource } from '@medplum/fhirtypes';
import { errors, FhirError } from '../fhir/fhirError';
import { queryFromString } from '../fhir/fhirOperations';
import type { RepositorySession } from '../fhir/repository';
import { searchExpressionProblem } from '../search/searchExpressionCost';
import { parseSearchRequest } from '../search/searchRequest';

/** Stops a graph that fans out without end (each resource is still read at most once). */
export const maxGraphResources = 1000;
/**
 * Reads and searches one `$graph` may make. Whoever may write a GraphDefinition writes its links,
 * and every link is a search (or a read) for every resource it starts from: without a bound, a
 * GraphDefinition of ten thousand links made as many searches from one request, in one
 * transaction (which, on the embedded database, holds every other request).
 */
export const maxGraphCalls = 5000;
const idPattern = /^[A-Za-z0-9\-.]{1,64}$/;

/** The GraphDefinition named by `graph`: its canonical URL, its id, or its name. */
export async function findGraphDefinition(session: RepositorySession, graph: string): Promise<GraphDefinition> {
  const search = async (query: Record<string, string>) =>
    (await session.search(parseSearchRequest('GraphDefinition', { ...query, _count: '1' }, session.registry)))
      .resources[0] as GraphDefinition | undefined;
  if (graph.includes('/') || graph.includes(':')) {
    const byUrl = await search({ url: graph });
    if (byUrl) return byUrl;
  } else {
    if (idPattern.test(graph)) {
      const byId = await readOrUndefined(session, 'GraphDefinition', graph);
      if (byId) return byId as GraphDefinition;
    }
    const byName = await search({ 'name:exact': graph });
    if (byName) return byName;
  }
  throw errors.notFoundWith(`GraphDefinition "${graph}" not found`);
}

async function readOrUndefined(session: RepositorySession, type: string, id: string): Promise<Resource | undefined> {
  try {
    return await session.read(type, id);
  } catch (error) {
    // What the caller may not read, or what is gone, is left out of the graph rather than failing it.
    if (error instanceof FhirError && [403, 404, 410].includes(error.status)) return undefined;
    throw error;
  }
}

/**
 * `{Type}/{id}/$graph?graph=`: the start resource, then what the GraphDefinition's links reach —
 * `path` follows references found by a FHIRPath expression, `target.params` searches the target
 * type with `{ref}` replaced by the current resource — and their nested links. Every read and
 * search runs under the caller's access policy; each resource appears once.
 */
export async function graphOperation(
  session: RepositorySession,
  resourceType: string,
  id: string,
  graph: GraphDefinition,
  fhirBase: string,
): Promise<Bundle> {
  if (graph.start !== resourceType) {
    throw errors.invalid(
      `GraphDefinition ${graph.name ?? graph.id} starts at ${graph.start}, not ${resourceType}`,
      'graph',
    );
  }
  checkLinkPaths(graph);
  const start = await session.read(resourceType, id);
  const collected = new Map<string, Resource>([[`${resourceType}/${id}`, start]]);
  // What could not be read (absent, or not the caller's to read) is not read again.
  const unreadable = new Set<string>();
  let calls = 0;
  const spend = (count = 1) => {
    calls += count;
    if (calls > maxGraphCalls) {
      throw errors.invalid(
        `GraphDefinition ${graph.name ?? graph.id} needs more than ${maxGraphCalls} reads and searches`,
        'graph',
      );
    }
  };

  const follow = async (resource: Resource, links: GraphDefinitionLink[] | undefined): Promise<void> => {
    // Each target with search params is one search from this resource: a definition with too many
    // is refused at once rather than after the searches the limit allows.
    const searches = (links ?? []).reduce(
      (count, link) => count + (link.path ? 0 : (link.target ?? []).filter((t) => t.params && t.type).length),
      0,
    );
    if (calls + searches > maxGraphCalls) spend(searches);
    for (const link of links ?? []) {
      for (const target of link.target ?? []) {
        if (collected.size >= maxGraphResources) return;
        const reached: Resource[] = [];
        if (link.path) {
          for (const reference of referencesAt(resource, link.path)) {
            const [type, targetId] = (reference.reference ?? '').split('/');
            if (type !== target.type || !targetId || !idPattern.test(targetId)) continue;
            const key = `${type}/${targetId}`;
            if (unreadable.has(key)) continue;
            let read = collected.get(key);
            if (!read) {
              spend();
              read = await readOrUndefined(session, type, targetId);
            }
            if (read) reached.push(read);
            else unreadable.add(key);
          }
        } else if (target.params && target.type) {
          const query = queryFromString(target.params.replaceAll('{ref}', `${resource.resourceType}/${resource.id}`));
          const request = parseSearchRequest(target.type, { ...query, _count: '1000' }, session.registry);
          spend();
          try {
            reached.push(...(await session.search(request)).resources);
          } catch (error) {
            if (!(error instanceof FhirError && error.status === 403)) throw error;
          }
        }
        for (const next of reached) {
          const key = `${next.resourceType}/${next.id}`;
          if (collected.has(key)) continue;
          if (collected.size >= maxGraphResources) return;
          collected.set(key, next);
          await follow(next, target.link);
        }
      }
    }
  };
  await follow(start, graph.link);

  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [...collected.values()].map((resource) => ({
      fullUrl: `${fhirBase}${resource.resourceType}/${resource.id}`,
      resource,
    })),
  };
}

/**
 * Links (at any depth) one GraphDefinition may have: each path is checked before anything is read,
 * and no more than `maxGraphCalls` links can ever be followed.
 */
export const maxGraphLinks = 2 * maxGraphCalls;

/**
 * Refuses, before anything is read, a GraphDefinition whose link paths could cost more than the
 * resources they walk: whoever may write a GraphDefinition writes its paths, and each runs on every
 * resource the link starts from. Held to what a project's search parameter may use
 * (searchExpressionCost.ts: functions of linear cost, no `%resource` inside arguments, bounded size).
 */
function checkLinkPaths(graph: GraphDefinition): void {
  const pending: GraphDefinitionLink[][] = [graph.link ?? []];
  const checked = new Set<string>();
  let links = 0;
  while (pending.length > 0) {
    for (const link of pending.pop() as GraphDefinitionLink[]) {
      if (++links > maxGraphLinks) {
        throw errors.invalid(`GraphDefinition ${graph.name ?? graph.id} has more than ${maxGraphLinks} links`, 'graph');
      }
      const path = typeof link.path === 'string' && !checked.has(link.path) ? link.path : undefined;
      const problem = path === undefined ? undefined : searchExpressionProblem(path);
      if (path !== undefined) checked.add(path);
      if (problem) {
        throw errors.invalid(`GraphDefinition link path "${link.path}" is not allowed: ${problem}`, 'graph');
      }
      for (const target of link.target ?? []) if (target.link) pending.push(target.link);
    }
  }
}

/** The References a FHIRPath path selects (`Patient.generalPractitioner` or `generalPractitioner`). */
function referencesAt(resource: Resource, path: string): Reference[] {
  let values: unknown[];
  try {
    values = fhirpath.evaluate(resource, path, undefined, r4Model) as unknown[];
  } catch (error) {
    throw errors.invalid(`Invalid path "${path}" in GraphDefinition link: ${(error as Error).message}`, 'graph');
  }
  return values.filter(
    (value): value is Reference =>
      typeof value === 'object' && value !== null && typeof (value as Reference).reference === 'string',
  );
}
