import type { Subscription } from '@medplum/fhirtypes';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import type { SqlExecutor } from '../storage/database';
import { parseCriteria, type ParsedCriteria } from './criteriaMatcher';

/** An active websocket Subscription, with its criteria parsed once. */
export interface ActiveSubscription {
  id: string;
  projectId: string | null;
  criteria: string;
  parsed: ParsedCriteria;
}

/** Is this Subscription one the websocket delivers for? */
export function isActiveWebsocketSubscription(subscription: Subscription): boolean {
  return subscription.status === 'active' && subscription.channel?.type === 'websocket' && !!subscription.criteria;
}

/** A loaded Subscription, its criteria parsed by the registry (and registry version) noted with it. */
interface LoadedSubscription {
  id: string;
  projectId: string | null;
  criteria: string;
  registry: SearchParameterRegistry;
  version: number;
  /** Undefined while the search API refuses the criteria (e.g. a parameter the project removed). */
  parsed?: ParsedCriteria;
}

/**
 * The active websocket Subscriptions bound on this process, loaded from the database on first need
 * and dropped whenever a Subscription is written on any process (`invalidate`), so that every
 * write does not have to read the Subscription table. Only bound Subscriptions are read and
 * parsed: the Subscriptions stored are as many as any member cares to save (a patient of the
 * portal may save its own), and parsing all of them on every change would let one member stall
 * every process's event loop; what this process binds is what its sockets asked for. Whether any
 * Subscription at all watches a type (`watchedTypes`, for the announcements to the other
 * processes) is a question for the database, answered without parsing. Subscriptions whose
 * criteria the search API refuses are left out (binding to them reports why). Criteria are parsed
 * again when their project's search parameters change (the registry's version), so that a
 * SearchParameter an implementer edits (say its type) takes effect for the Subscriptions already
 * bound on it, as it does for searches.
 */
export class ActiveSubscriptionCache {
  /** By id: the Subscription as loaded, undefined when it is not an active websocket Subscription. */
  private readonly byId = new Map<string, Promise<LoadedSubscription | undefined>>();
  private watched: Promise<ReadonlySet<string>> | undefined;
  private generation = 0;

  constructor(
    private readonly db: SqlExecutor,
    private readonly registry: SearchParameterRegistry,
  ) {}

  /** The active websocket Subscriptions among `ids` (those bound here) whose criteria are about `resourceType`. */
  async forType(resourceType: string, ids: Iterable<string>): Promise<ActiveSubscription[]> {
    const wanted = new Set(ids);
    // Unbound ones are forgotten: the cache holds what this process serves, nothing more.
    for (const id of this.byId.keys()) if (!wanted.has(id)) this.byId.delete(id);
    const missing = [...wanted].filter((id) => !this.byId.has(id));
    if (missing.length > 0) {
      const generation = this.generation;
      const batch = this.load(missing);
      for (const id of missing) {
        const entry = batch.then((loaded) => loaded.get(id));
        this.byId.set(id, entry);
        entry.catch(() => {
          if (this.generation === generation && this.byId.get(id) === entry) this.byId.delete(id);
        });
      }
    }
    const active: ActiveSubscription[] = [];
    for (const id of wanted) {
      const loaded = await this.byId.get(id);
      if (!loaded || typeOfCriteria(loaded.criteria) !== resourceType) continue;
      const { projectId, criteria, parsed } = this.current(loaded);
      if (parsed) active.push({ id, projectId, criteria, parsed });
    }
    return active;
  }

  /** The types some active websocket Subscription of any project watches, bound here or not. */
  watchedTypes(): Promise<ReadonlySet<string>> {
    if (!this.watched) {
      const generation = this.generation;
      const watched = this.db
        .query<{ resource_type: string }>(
          `SELECT DISTINCT split_part(content->>'criteria', '?', 1) AS resource_type FROM resources
           WHERE resource_type = 'Subscription' AND NOT deleted AND content->>'status' = 'active'
             AND content->'channel'->>'type' = 'websocket'`,
        )
        .then((rows) => new Set(rows.map((row) => row.resource_type)));
      this.watched = watched;
      watched.catch(() => {
        if (this.generation === generation && this.watched === watched) this.watched = undefined;
      });
    }
    return this.watched;
  }

  invalidate(): void {
    this.generation++;
    this.byId.clear();
    this.watched = undefined;
  }

  /** The Subscription parsed again when its project's parameters changed since it was parsed. */
  private current(loaded: LoadedSubscription): LoadedSubscription {
    const registry = this.registry.forProject(loaded.projectId);
    if (registry === loaded.registry && registry.version === loaded.version) return loaded;
    const reparsed = parsedWith(loaded, registry);
    Object.assign(loaded, reparsed);
    return loaded;
  }

  private async load(ids: readonly string[]): Promise<Map<string, LoadedSubscription>> {
    const rows = await this.db.query<{ content: Subscription; project_id: string | null }>(
      `SELECT content, project_id FROM resources
       WHERE resource_type = 'Subscription' AND id = ANY($1::text[]) AND NOT deleted`,
      [ids],
    );
    const loaded = new Map<string, LoadedSubscription>();
    for (const { content, project_id: projectId } of rows) {
      if (!isActiveWebsocketSubscription(content)) continue;
      const id = content.id as string;
      loaded.set(
        id,
        parsedWith({ id, projectId, criteria: content.criteria as string }, this.registry.forProject(projectId)),
      );
    }
    return loaded;
  }
}

/** The resource type a criteria is about (the part before `?`), as `watchedTypes` reads it. */
function typeOfCriteria(criteria: string): string {
  return criteria.split('?', 1)[0];
}

/** The Subscription with its criteria parsed by `registry` (undefined when the search API refuses them). */
function parsedWith(
  subscription: Pick<LoadedSubscription, 'id' | 'projectId' | 'criteria'>,
  registry: SearchParameterRegistry,
): LoadedSubscription {
  const { id, projectId, criteria } = subscription;
  let parsed: ParsedCriteria | undefined;
  try {
    parsed = parseCriteria(criteria, registry);
  } catch {
    parsed = undefined;
  }
  return { id, projectId, criteria, registry, version: registry.version, parsed };
}
