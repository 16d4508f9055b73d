import { describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { fhircastStore, leaseSeconds } from './fhircastStore';

const database = embeddedTestDatabase('fhircast-store');

describe('fhircastStore subscriptions', { timeout: 30_000 }, () => {
  it('opens a subscription within the lease the confirmation announces, and not after it', async () => {
    const subscription = {
      projectId: 'project-a',
      topic: 'Practitioner/p1\ntopic',
      events: ['Patient-open'],
      loginId: 'login-1',
    };
    await fhircastStore.addSubscription(database(), { ...subscription, id: 'fresh' });
    await fhircastStore.addSubscription(database(), { ...subscription, id: 'stale' });
    // An endpoint handed out a lease and a minute ago: its URL is no longer a key to the topic.
    await database().query(
      `UPDATE fhircast_subscriptions SET created = now() - make_interval(secs => $1::float8) WHERE id = 'stale'`,
      [leaseSeconds + 60],
    );

    const fresh = await fhircastStore.subscription(database(), 'fresh');
    expect(fresh).toMatchObject({ ...subscription, id: 'fresh' });
    const expires = fresh?.expires ?? 0;
    expect(Math.abs(expires - (Date.now() + leaseSeconds * 1000))).toBeLessThan(60_000);
    expect(await fhircastStore.subscription(database(), 'stale')).toBeUndefined();
  });
});
