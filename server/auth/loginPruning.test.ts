import { randomUUID } from 'node:crypto';
import type { ClientApplication, Login, Resource, User } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { systemAuthor } from '../definitions/loadDefinitions';
import { Repository } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database } from '../storage/database';
import { openDatabase } from '../storage/openDatabase';
import { throwawayDatabase } from '../storage/throwawayDatabase.test-support';
import { accessTokenExpiryOf, withAccessTokenExpiry } from './accessTokenExpiry';
import type { AuthEnvironment } from './authEnvironment';
import { resolveCaller } from './callerResolver';
import { createLogin, grantTokens, revokeLogin } from './loginService';
import { pruneEndedLogins } from './loginPruning';
import { SigningKeys } from './signingKeys';

// The sweep deletes rows straight from the tables, so it runs on a database of its own: the
// embedded one, or with HEARTH_TEST_DATABASE_URL one in the native cluster.
const nativeCluster = process.env.HEARTH_TEST_DATABASE_URL ? throwawayDatabase('hearth_login_pruning') : undefined;
const embedded = nativeCluster ? undefined : embeddedTestDatabase('login-pruning');

const day = 24 * 60 * 60 * 1000;
let db: Database;
let auth: AuthEnvironment;
let member: { projectId: string; membershipId: string };

beforeAll(async () => {
  if (nativeCluster) {
    await nativeCluster.create();
    db = await openDatabase({ databaseUrl: nativeCluster.url });
  } else {
    db = (embedded as () => Database)();
  }
  const baseUrl = 'http://127.0.0.1:1/';
  const registry = definitionSearchParameters();
  auth = {
    repository: new Repository(db, registry),
    registry,
    keys: await SigningKeys.load(db, baseUrl),
    config: { baseUrl, registration: 'closed', emailProjectHourlyLimit: 0 } as AuthEnvironment['config'],
    sharedProjectId: randomUUID(),
    email: { mode: 'outbox', send: () => Promise.reject(new Error('No e-mail in login pruning tests')) },
  };
  member = await auth.repository.transaction(async (session) => {
    const ctx = { projectId: randomUUID(), author: systemAuthor };
    await session.create(ctx, { resourceType: 'Project', name: 'Pruning' } as Resource, {
      id: ctx.projectId,
      fresh: true,
    });
    const practitioner = await session.create(ctx, { resourceType: 'Practitioner' } as Resource);
    const membership = await session.create(ctx, {
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${ctx.projectId}` },
      user: { reference: `User/${randomUUID()}` },
      profile: { reference: `Practitioner/${practitioner.id}` },
    } as Resource);
    return { projectId: ctx.projectId, membershipId: membership.id as string };
  });
}, 120_000);

afterAll(async () => {
  if (nativeCluster) {
    await db?.close();
    await nativeCluster.drop();
  }
});

/** A granted sign-in through the login service, as the token endpoint makes it. */
function signIn(client?: ClientApplication): Promise<{ loginId: string; accessToken: string }> {
  return auth.repository.transaction(async (session) => {
    const login = await createLogin(
      session,
      client
        ? { clientSubject: client, client, authMethod: 'client' }
        : { user: { resourceType: 'User', id: randomUUID() } as User, authMethod: 'password' },
    );
    const tokens = await grantTokens(auth, session, {
      ...login,
      membership: { reference: `ProjectMembership/${member.membershipId}` },
      project: { reference: `Project/${member.projectId}` },
    } as Login);
    return { loginId: login.id as string, accessToken: tokens.access_token };
  });
}

/** A ClientApplication of the member's project whose access tokens last ten weeks. */
function tenWeekClient(name: string): Promise<ClientApplication> {
  return auth.repository.transaction(
    async (session) =>
      (await session.create({ projectId: member.projectId, author: systemAuthor }, {
        resourceType: 'ClientApplication',
        name,
        accessTokenLifetime: '10w',
      } as Resource)) as ClientApplication,
  );
}

/**
 * Moves a Login's sign-in, its last write and its recorded access token expiry back so that they
 * happened at `at`, as if the whole sign-in had happened then.
 */
async function backdate(loginId: string, at: number): Promise<void> {
  const [row] = await db.query<{ content: Login | string }>(
    `SELECT content FROM resources WHERE resource_type = 'Login' AND id = $1`,
    [loginId],
  );
  const login = typeof row.content === 'string' ? (JSON.parse(row.content) as Login) : row.content;
  const shift = at - Date.parse(login.meta?.lastUpdated as string);
  const expiry = accessTokenExpiryOf(login);
  const moved = {
    ...(expiry === undefined ? login : withAccessTokenExpiry(login, expiry + shift)),
    meta: { ...login.meta, lastUpdated: new Date(at).toISOString() },
    authTime: new Date(at).toISOString(),
  };
  await db.query(
    `UPDATE resources SET last_updated = $2::timestamptz, content = $3::jsonb WHERE resource_type = 'Login' AND id = $1`,
    [loginId, new Date(at).toISOString(), JSON.stringify(moved)],
  );
}

/** Every row stored for a resource: current, history, and per search index table. */
async function rowsOf(loginId: string): Promise<Record<string, number>> {
  const indexTables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_name LIKE 'search\\_%' ORDER BY table_name`,
  );
  expect(indexTables.length).toBeGreaterThanOrEqual(8);
  const counts: Record<string, number> = {};
  const count = async (table: string, idColumn: string) => {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM ${table} WHERE resource_type = 'Login' AND ${idColumn} = $1`,
      [loginId],
    );
    counts[table] = Number(row.n);
  };
  await count('resources', 'id');
  await count('resource_history', 'id');
  for (const { table_name } of indexTables) await count(table_name, 'resource_id');
  return counts;
}

const indexRowCount = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([table]) => table.startsWith('search_'))
    .reduce((sum, [, n]) => sum + n, 0);

async function contentOf(loginId: string): Promise<unknown> {
  const [row] = await db.query<{ content: unknown }>(
    `SELECT content FROM resources WHERE resource_type = 'Login' AND id = $1`,
    [loginId],
  );
  return row?.content;
}

function callerLoginOf(accessToken: string): Promise<string | undefined> {
  return auth.repository.transaction(async (session) => (await resolveCaller(auth, session, accessToken)).login.id);
}

describe('pruneEndedLogins', () => {
  it('deletes every row of the Logins ended long ago and leaves the others as they were', async () => {
    const now = Date.now();
    const revokedLongAgo = await signIn();
    await auth.repository.transaction((session) => revokeLogin(session, revokedLongAgo.loginId));
    await backdate(revokedLongAgo.loginId, now - 45 * day);
    const endedLongAgo = await signIn();
    await backdate(endedLongAgo.loginId, now - 40 * day);
    const active = await signIn();
    // A client's own sign-in written 35 days ago whose 10-week access token is still valid.
    const client = await tenWeekClient('Long-lived');
    const longLivedClient = await signIn(client);
    await backdate(longLivedClient.loginId, now - 35 * day);

    const ended = [revokedLongAgo, endedLongAgo];
    const kept = [active, longLivedClient];
    for (const { loginId } of ended) {
      const rows = await rowsOf(loginId);
      expect(rows.resources).toBe(1);
      expect(rows.resource_history).toBeGreaterThanOrEqual(2);
      expect(indexRowCount(rows)).toBeGreaterThan(0);
    }
    const keptBefore = await Promise.all(
      kept.map(async ({ loginId }) => ({ rows: await rowsOf(loginId), content: await contentOf(loginId) })),
    );
    for (const { rows } of keptBefore) expect(indexRowCount(rows)).toBeGreaterThan(0);

    // Two processes sweeping at once, in batches of one: each Login is deleted once between them.
    const removed = await Promise.all([
      pruneEndedLogins(db, now, { batchSize: 1 }),
      pruneEndedLogins(db, now, { batchSize: 1 }),
    ]);
    expect(removed[0] + removed[1]).toBe(2);

    for (const { loginId } of ended) {
      const rows = await rowsOf(loginId);
      expect(Object.entries(rows).filter(([, n]) => n !== 0)).toEqual([]);
    }
    const keptAfter = await Promise.all(
      kept.map(async ({ loginId }) => ({ rows: await rowsOf(loginId), content: await contentOf(loginId) })),
    );
    expect(keptAfter).toEqual(keptBefore);

    // Still-valid tokens still work; the deleted Logins' tokens are refused.
    expect(await callerLoginOf(active.accessToken)).toBe(active.loginId);
    expect(await callerLoginOf(longLivedClient.accessToken)).toBe(longLivedClient.loginId);
    await expect(callerLoginOf(endedLongAgo.accessToken)).rejects.toMatchObject({ status: 401 });

    // Sweeping again finds nothing more to delete.
    expect(await pruneEndedLogins(db, now)).toBe(0);
  });

  it("keeps a Login while the access token it was granted lasts, though its client's lifetime was shortened since", async () => {
    const now = Date.now();
    const client = await tenWeekClient('Shortened later');
    const granted = await signIn(client);
    await backdate(granted.loginId, now - 35 * day);
    await auth.repository.transaction((session) =>
      session.update({ projectId: member.projectId, author: systemAuthor }, { ...client, accessTokenLifetime: '1h' }),
    );
    // Granted 35 days ago for ten weeks: still valid, so kept (counted with today's hour it was not).
    expect(await pruneEndedLogins(db, now)).toBe(0);
    expect((await rowsOf(granted.loginId)).resources).toBe(1);
    expect(await callerLoginOf(granted.accessToken)).toBe(granted.loginId);
    // Thirty days after that token expired, it goes.
    await pruneEndedLogins(db, now + 66 * day);
    expect((await rowsOf(granted.loginId)).resources).toBe(0);
  });

  it('stops before its next batch once the server is closing, deleting nothing more', async () => {
    const now = Date.now();
    const endedLongAgo = await signIn();
    await backdate(endedLongAgo.loginId, now - 40 * day);
    const closing = new AbortController();
    closing.abort();
    expect(await pruneEndedLogins(db, now, { signal: closing.signal })).toBe(0);
    expect((await rowsOf(endedLongAgo.loginId)).resources).toBe(1);
    expect(await pruneEndedLogins(db, now)).toBe(1);
    expect((await rowsOf(endedLongAgo.loginId)).resources).toBe(0);
  });
});
