import { beforeAll, describe, expect, it } from 'vitest';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { maxKeysPerUser } from './keyValueLimits';
import { keyValueCall } from './keyValueCall.test-support';

/** Status and text only: these tests compare whole answers. */
const call = (method: string, key: string, token: string, body?: string) =>
  keyValueCall(method, key, token, body).then(({ status, text }) => ({ status, text }));

/**
 * The limit of keys per user and application was checked by counting and then inserting: PUTs of
 * new keys sent at the same time each counted room for one more and all inserted, so a partition
 * could grow past the limit, a few keys per burst, without end. The check and the insert are now
 * one step per partition.
 */
describe('/keyvalue/v1 keeps at most maxKeysPerUser keys, even under concurrent PUTs', () => {
  const alreadyStored = maxKeysPerUser - 10;
  const concurrent = 50;
  let token: string;

  beforeAll(async () => {
    token = (await registerProjectOwner('Key Limit Clinic')).tokens.access_token;
    for (let i = 0; i < alreadyStored; i++) {
      expect((await call('PUT', `existing-${i}`, token, 'x')).status).toBe(204);
    }
  });

  it('stores exactly up to the limit and refuses the rest with the limit error', async () => {
    const keys = Array.from({ length: concurrent }, (_, i) => `racing-${i}`);
    const puts = await Promise.all(keys.map((key) => call('PUT', key, token, key)));
    const stored = keys.filter((_, i) => puts[i].status === 204);
    const refused = puts.filter((put) => put.status !== 204);
    expect(stored).toHaveLength(maxKeysPerUser - alreadyStored);
    expect(refused).toHaveLength(concurrent - stored.length);
    for (const put of refused) {
      expect(put.status).toBe(400);
      expect(put.text).toContain(`At most ${maxKeysPerUser} keys per user and application`);
    }
    // Exactly the accepted ones were kept: the partition holds the limit, not more.
    const reads = await Promise.all(keys.map((key) => call('GET', key, token)));
    expect(keys.filter((_, i) => reads[i].status === 200)).toEqual(stored);
    expect((await call('PUT', 'one-more', token, 'x')).status).toBe(400);
  });

  it('still replaces an existing key at the limit, and takes a new one once a key is deleted', async () => {
    expect((await call('PUT', 'existing-0', token, 'replaced')).status).toBe(204);
    expect((await call('GET', 'existing-0', token)).text).toBe('replaced');
    expect((await call('DELETE', 'existing-1', token)).status).toBe(204);
    expect((await call('PUT', 'after-delete', token, 'x')).status).toBe(204);
    expect((await call('PUT', 'after-delete-2', token, 'x')).status).toBe(400);
  });
});
