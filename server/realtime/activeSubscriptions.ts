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

/** The Subscriptions of one type as loaded, and those whose criteria parse, as last computed. */
interface TypeEntry {
  loaded: LoadedSubscription[];
  active: ActiveSubscription[];
}

/**
 * The active websocket Subscriptions of each resource type, loaded from the database on first need
 * and dropped whenever a Subscription is written on any process (`invalidate`), so that every
 * write does not have to read the Subscription table. Subscriptions whose criteria the search API
 * refuses are left out (binding to them reports why). Criteria are parsed again when their
 * project's search parameters change (the registry's version), so that a SearchParameter an
 * implementer edits (say its type) takes effect for the Subscriptions already bound on it, as it
 * does for searches.
 */
export class ActiveSubscriptionCache {
  private readonly byType = new Map<string, Promise<TypeEntry>>();
  private generation = 0;

  constructor(
    private readonly db: SqlExecutor,
    private readonly registry: SearchParameterRegistry,
  ) {}

  async forType(resourceType: string): Promise<ActiveSubscription[]> {
    let entry = this.byType.get(resourceType);
    if (!entry) {
      const generation = this.generation;
      entry = this.load(resourceType).catch((error: unknown) => {
        if (this.generation === generation) this.byType.delete(resourceType);
        throw error;
      });
      this.byType.set(resourceType, entry);
    }
    return this.current(await entry);
  }

  invalidate(): void {
    this.generation++;
    this.byType.clear();
  }

  /** The entry's parsed Subscriptions, parsed again where their project's parameters changed. */
  private current(entry: TypeEntry): ActiveSubscription[] {
    let changed = false;
    entry.loaded.forEach((subscription, index) => {
      const registry = this.registry.forProject(subscription.projectId);
      if (registry === subscription.registry && registry.version === subscription.version) return;
      entry.loaded[index] = parsedWith(subscription, registry);
      changed = true;
    });
    if (changed) entry.active = activeOf(entry.loaded);
    return entry.active;
  }

  private async load(resourceType: string): Promise<TypeEntry> {
    const rows = await this.db.query<{ content: Subscription; project_id: string | null }>(
      `SELECT content, project_id FROM resources
       WHERE resource_type = 'Subscription' AND NOT deleted AND content->>'status' = 'active'
         AND content->'channel'->>'type' = 'websocket' AND split_part(content->>'criteria', '?', 1) = $1`,
      [resourceType],
    );
    const loaded = rows.map(({ content, project_id: projectId }) =>
      parsedWith(
        { id: content.id as string, projectId, criteria: content.criteria as string },
        this.registry.forProject(projectId),
      ),
    );
    return { loaded, active: activeOf(loaded) };
  }
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

function activeOf(loaded: readonly LoadedSubscription[]): ActiveSubscription[] {
  const active: ActiveSubscription[] = [];
  for (const { id, projectId, criteria, parsed } of loaded) {
    if (parsed) active.push({ id, projectId, criteria, parsed });
  }
  return active;
}
