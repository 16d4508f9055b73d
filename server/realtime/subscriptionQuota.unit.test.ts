import type { Subscription } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { FhirError } from '../fhir/fhirError';
import { Repository, type RequestContext } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import { subscriptionQuotaHook } from './subscriptionQuota';

const database = embeddedTestDatabase('subscription-quota');
const project = (projectId: string): RequestContext => ({ projectId, author: { reference: 'Patient/member' } });

const subscription = (status: Subscription['status'], type = 'websocket'): Subscription => ({
  resourceType: 'Subscription',
  status,
  reason: 'quota',
  criteria: 'Communication?status=completed',
  channel: { type: type as 'websocket', ...(type === 'rest-hook' ? { endpoint: 'https://example.org/hook' } : {}) },
});

describe('the active Subscriptions of a project', { timeout: 60_000 }, () => {
  let repository: Repository;
  const limit = 2;
  const count = async (projectId: string) =>
    Number(
      (
        await database().query<{ n: number }>(
          `SELECT count(*)::integer AS n FROM resources WHERE resource_type = 'Subscription' AND project_id = $1 AND NOT deleted`,
          [projectId],
        )
      )[0].n,
    );

  beforeAll(() => {
    repository = new Repository(database(), definitionSearchParameters());
    repository.onBeforeCommit(subscriptionQuotaHook(() => limit));
  });

  it('refuses the one past the limit (422 naming it), counting websocket and rest-hook alike', async () => {
    const a = project('quota-a');
    await repository.create(a, subscription('active'));
    const restHook = await repository.create(a, subscription('active', 'rest-hook'));
    const refused = await repository.create(a, subscription('active')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FhirError);
    expect((refused as FhirError).status).toBe(422);
    expect((refused as FhirError).outcome.issue[0]).toMatchObject({
      code: 'business-rule',
      details: {
        text: 'This project has reached its limit of 2 active websocket and rest-hook Subscriptions: set one it no longer needs to "off" (or delete it) first',
      },
      expression: ['Subscription.status'],
    });
    // Not active, or of another project: not counted.
    await repository.create(a, subscription('requested'));
    await repository.create(a, subscription('active', 'email'));
    await repository.create(project('quota-b'), subscription('active'));
    // Turned on by an update: counted too.
    const requested = (await repository.create(a, subscription('requested'))) as Subscription;
    await expect(repository.update(a, { ...requested, status: 'active' })).rejects.toThrow(/limit of 2/);
    // Switching one off makes room.
    await repository.update(a, { ...(restHook as Subscription), status: 'off' });
    await repository.update(a, { ...requested, status: 'active' });
    expect(await count('quota-a')).toBe(5);
  });

  it('stores nothing of a transaction that would go past it', async () => {
    const c = project('quota-c');
    await repository.create(c, subscription('active'));
    await expect(
      repository.transaction(async (session) => {
        await session.create(c, subscription('requested'));
        await session.create(c, subscription('active'));
        await session.create(c, subscription('active'));
      }),
    ).rejects.toThrow(/limit of 2/);
    expect(await count('quota-c')).toBe(1);
  });
});
