import { beforeAll, describe, expect, it } from 'vitest';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { inviteMember } from '../admin/projectMembers.test-support';
import { maxKeyLength, maxValueBytes } from './keyValueLimits';
import { keyValueCall } from './keyValueCall.test-support';

const call = keyValueCall;

describe('/keyvalue/v1/{key}', () => {
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    const owner = await registerProjectOwner('Key Clinic');
    alice = owner.tokens.access_token;
    bob = (await inviteMember(alice, owner.projectId)).token;
  });

  it('stores, reads, replaces and deletes a text value', async () => {
    expect((await call('GET', 'theme', alice)).status).toBe(404);
    expect((await call('PUT', 'theme', alice, 'dark')).status).toBe(204);
    const read = await call('GET', 'theme', alice);
    expect(read).toMatchObject({ status: 200, text: 'dark' });
    expect(read.type).toContain('text/plain');
    await call('PUT', 'theme', alice, 'light – ünïcode');
    expect((await call('GET', 'theme', alice)).text).toBe('light – ünïcode');
    expect((await call('DELETE', 'theme', alice)).status).toBe(204);
    expect((await call('GET', 'theme', alice)).status).toBe(404);
    expect((await call('DELETE', 'theme', alice)).status).toBe(204);
    // Keys may name a path (the client encodes the slash).
    await call('PUT', 'ui/chart:layout', alice, 'two-columns');
    expect((await call('GET', 'ui/chart:layout', alice)).text).toBe('two-columns');
  });

  it('keeps each user apart: one user never sees or changes another user value', async () => {
    await call('PUT', 'layout', alice, 'alice-layout');
    expect((await call('GET', 'layout', bob)).status).toBe(404);
    await call('PUT', 'layout', bob, 'bob-layout');
    await call('DELETE', 'layout', bob);
    expect((await call('GET', 'layout', alice)).text).toBe('alice-layout');
  });

  it('limits keys (400) and values (413) with a clear message, and stores nothing then', async () => {
    const longKey = await call('PUT', 'k'.repeat(maxKeyLength + 1), alice, 'x');
    expect(longKey.status).toBe(400);
    expect(longKey.text).toContain(`longer than ${maxKeyLength}`);
    const oddKey = await call('PUT', 'a key with spaces', alice, 'x');
    expect(oddKey.status).toBe(400);
    const big = await call('PUT', 'big', alice, 'x'.repeat(maxValueBytes + 1));
    expect(big.status).toBe(413);
    expect(big.text).toContain(`limit is ${maxValueBytes} bytes`);
    expect((await call('GET', 'big', alice)).status).toBe(404);
    expect((await call('PUT', 'exact', alice, 'x'.repeat(maxValueBytes))).status).toBe(204);
  });

  it('needs a signed-in caller and a text value', async () => {
    expect((await call('GET', 'theme', null)).status).toBe(401);
    expect((await call('PUT', 'theme', null, 'x')).status).toBe(401);
    const json = await call('PUT', 'json', alice, JSON.stringify({ a: 1 }), 'application/json');
    expect(json.status).toBe(400);
    expect(json.text).toContain('must be text');
  });
});
