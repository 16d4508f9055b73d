import { randomUUID } from 'node:crypto';
import type { ClientApplication, Login, Resource, User } from '@medplum/fhirtypes';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { systemAuthor } from '../definitions/loadDefinitions';
import { Repository } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database } from '../storage/database';
import { openDatabase } from '../storage/openDatabase';
import { throwawayDatabase } from '../storage/throwawayDatabase.test-support';
import type { AuthEnvironment } from './authEnvironment';
import {
  createLogin,
  exchangeCode,
  hashSecret,
  newSecret,
  OAuthError,
  saveLogin,
  type CodeRedemption,
} from './loginService';
import { pkcePair } from '../../tests/integration/signIn';
import { verifyCodeChallenge } from './pkce';
import { SigningKeys } from './signingKeys';

/**
 * RFC 6749 §4.1.3 through the login service: a sign-in that recorded the authorization request's
 * redirect_uri (`LoginStart.redirectUri`) has its code redeemed only with that same value. Driven
 * on a database of its own, as the token endpoint would: createLogin, a code, exchangeCode.
 */
const nativeCluster = process.env.HEARTH_TEST_DATABASE_URL ? throwawayDatabase('hearth_code_redirect') : undefined;
const embedded = nativeCluster ? undefined : embeddedTestDatabase('code-redirect');

let db: Database;
let auth: AuthEnvironment;
let member: { projectId: string; membershipId: string };
let client: ClientApplication;
const first = 'http://localhost:9999/cb';
const second = 'https://app.example/second';

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
    email: { mode: 'outbox', send: () => Promise.reject(new Error('No e-mail here')) },
  };
  ({ member, client } = await auth.repository.transaction(async (session) => {
    const ctx = { projectId: randomUUID(), author: systemAuthor };
    await session.create(ctx, { resourceType: 'Project', name: 'Redirects' } as Resource, {
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
    const app = (await session.create(ctx, {
      resourceType: 'ClientApplication',
      name: 'Two addresses',
      redirectUri: first,
      redirectUris: [second],
    } as Resource)) as ClientApplication;
    return { member: { projectId: ctx.projectId, membershipId: membership.id as string }, client: app };
  }));
}, 120_000);

afterAll(async () => {
  if (nativeCluster) {
    await db?.close();
    await nativeCluster.drop();
  }
});

/** A sign-in through the app that named `redirectUri` (or none), bound to the member, with a code. */
async function codeFor(redirectUri: string | undefined): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const code = newSecret();
  await auth.repository.transaction(async (session) => {
    const login = await createLogin(session, {
      user: { resourceType: 'User', id: randomUUID() } as User,
      client,
      authMethod: 'password',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      ...(redirectUri ? { redirectUri } : {}),
    });
    await saveLogin(session, {
      ...login,
      membership: { reference: `ProjectMembership/${member.membershipId}` },
      project: { reference: `Project/${member.projectId}` },
      code: hashSecret(code),
    } as Login);
  });
  return { code, verifier };
}

/** exchangeCode as the token endpoint calls it: the OAuth error it answers, or 'granted'. */
async function redeem(issued: { code: string; verifier: string }, redirectUri?: string) {
  const redemption: CodeRedemption = { code: issued.code, verifier: issued.verifier, redirectUri };
  try {
    await auth.repository.transaction((session) =>
      exchangeCode(auth, session, redemption, { clientId: client.id, authenticated: false }, verifyCodeChallenge),
    );
    return 'granted';
  } catch (error) {
    if (error instanceof OAuthError) return { error: error.error, description: error.description };
    throw error;
  }
}

describe('a code whose authorization request named a redirect_uri', () => {
  it('is redeemed with that redirect_uri only: not without one, not with another registered one', async () => {
    const issued = await codeFor(first);
    expect(await redeem(issued)).toEqual({
      error: 'invalid_request',
      description: 'Missing redirect_uri: the authorization request named one',
    });
    const mismatch = { error: 'invalid_grant', description: 'redirect_uri does not match the authorization request' };
    expect(await redeem(issued, second)).toEqual(mismatch);
    expect(await redeem(issued, 'https://evil.example/cb')).toEqual(mismatch);
    expect(await redeem(issued, first)).toBe('granted');
  });

  it('records it on the Login (the extension the token endpoint reads)', async () => {
    const issued = await codeFor(second);
    expect(await redeem(issued, second)).toBe('granted');
    const [row] = await db.query<{ content: Login | string }>(
      `SELECT content FROM resources WHERE resource_type = 'Login' AND content->>'code' = $1`,
      [hashSecret(issued.code)],
    );
    const login = typeof row.content === 'string' ? (JSON.parse(row.content) as Login) : row.content;
    expect(login.extension).toContainEqual({
      url: 'https://hearth-emr.org/fhir/StructureDefinition/login-redirect-uri',
      valueUri: second,
    });
    expect(login.granted).toBe(true);
  });

  it('a sign-in that named none takes no redirect_uri, or one the client registered', async () => {
    expect(await redeem(await codeFor(undefined))).toBe('granted');
    expect(await redeem(await codeFor(undefined), second)).toBe('granted');
    expect(await redeem(await codeFor(undefined), 'https://evil.example/cb')).toEqual({
      error: 'invalid_grant',
      description: 'redirect_uri does not match the authorization request',
    });
  });
});
