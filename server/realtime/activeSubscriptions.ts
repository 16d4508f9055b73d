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

/**
 * The active websocket Subscriptions of each resource type, loaded from the database on first need
 * and dropped whenever a Subscription is written on any process (`invalidate`), so that every
 * write does not have to read the Subscription table. Subscriptions whose criteria the search API
 * refuses are left out (binding to them reports why).
 */
export class ActiveSubscriptionCache {
  private readonly byType = new Map<string, Promise<ActiveSubscription[]>>();
  private generation = 0;

  constructor(
    private readonly db: SqlExecutor,
    private readonly registry: SearchParameterRegistry,
  ) {}

  forType(resourceType: string): Promise<ActiveSubscription[]> {
    let entry = this.byType.get(resourceType);
    if (!entry) {
      const generation = this.generation;
      entry = this.load(resourceType).catch((error: unknown) => {
        if (this.generation === generation) this.byType.delete(resourceType);
        throw error;
      });
      this.byType.set(resourceType, entry);
    }
    return entry;
  }

  invalidate(): void {
    this.generation++;
    this.byType.clear();
  }

  private async load(resourceType: string): Promise<ActiveSubscription[]> {
    const rows = await this.db.query<{ content: Subscription; project_id: string | null }>(
      `SELECT content, project_id FROM resources
       WHERE resource_type = 'Subscription' AND NOT deleted AND content->>'status' = 'active'
         AND content->'channel'->>'type' = 'websocket' AND split_part(content->>'criteria', '?', 1) = $1`,
      [resourceType],
    );
    const result: ActiveSubscription[] = [];
    for (const { content, project_id: projectId } of rows) {
      try {
        const criteria = content.criteria as string;
        result.push({
          id: content.id as string,
          projectId,
          criteria,
          parsed: parseCriteria(criteria, this.registry.forProject(projectId)),
        });
      } catch {
        continue;
      }
    }
    return result;
  }
}
