import type { Subscription } from '@medplum/fhirtypes';
import type { BeforeCommitHook, CommittedWrite } from '../fhir/repository';
import { FhirError, outcomeOf } from '../fhir/fhirError';
import type { SqlExecutor } from '../storage/database';

/** Channels whose active Subscriptions are judged against writes (websocket here, rest-hook by the bots). */
export const countedChannelTypes = ['websocket', 'rest-hook'] as const;

/** Whether a stored Subscription counts against its project's limit. */
export function countsAgainstQuota(subscription: Subscription): boolean {
  return (
    subscription.status === 'active' &&
    (countedChannelTypes as readonly string[]).includes(subscription.channel?.type ?? '')
  );
}

/** The projects a transaction's writes made (or kept) an active websocket or rest-hook Subscription in. */
export function projectsToCount(writes: readonly CommittedWrite[]): string[] {
  const projects = new Set<string>();
  for (const { operation, resource } of writes) {
    if (operation === 'delete' || resource.resourceType !== 'Subscription') continue;
    const project = resource.meta?.project;
    if (project && countsAgainstQuota(resource as Subscription)) projects.add(project);
  }
  return [...projects].sort();
}

/** The refusal of a write past the limit: 422, naming the limit and the field that counts. */
export function subscriptionQuotaExceeded(limit: number): FhirError {
  return new FhirError(
    422,
    outcomeOf([
      {
        severity: 'error',
        code: 'business-rule',
        details: {
          text: `This project has reached its limit of ${limit} active websocket and rest-hook Subscriptions: set one it no longer needs to "off" (or delete it) first`,
        },
        expression: ['Subscription.status'],
      },
    ]),
  );
}

/**
 * A check run inside every writing transaction, before it commits: a transaction that leaves a
 * project with more active websocket or rest-hook Subscriptions than `limit()` is refused (422) and
 * writes nothing. Each is a question asked of every write of its type, and a project's members
 * (its patients too) may save their own. Counted in the database under a lock of the project's
 * count, so that two processes (or two transactions) cannot each add the last one.
 */
export function subscriptionQuotaHook(limit: () => number): BeforeCommitHook {
  return async (tx: SqlExecutor, writes: readonly CommittedWrite[]) => {
    for (const projectId of projectsToCount(writes)) {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('subscription-quota:' || $1))", [projectId]);
      const rows = await tx.query<{ active: number }>(
        `SELECT count(*)::integer AS active FROM resources
         WHERE resource_type = 'Subscription' AND project_id = $1 AND NOT deleted
           AND content->>'status' = 'active' AND content->'channel'->>'type' = ANY($2::text[])`,
        [projectId, countedChannelTypes],
      );
      const max = limit();
      if (Number(rows[0]?.active ?? 0) > max) throw subscriptionQuotaExceeded(max);
    }
  };
}
