import { randomUUID } from 'node:crypto';
import type { Login, Resource } from '@medplum/fhirtypes';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../tests/integration/freePort';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { grantTokens } from '../auth/loginService';
import { SigningKeys } from '../auth/signingKeys';
import { systemAuthor } from '../definitions/loadDefinitions';
import { FhirError } from '../fhir/fhirError';
import { Repository, type RepositorySession } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database } from '../storage/database';

/** A server of the realtime routes alone, on an embedded database of its own. */
export interface EmbeddedRealtimeServer {
  app: FastifyInstance;
  auth: AuthEnvironment;
  /** `http://127.0.0.1:{port}/`, as BASE_URL. */
  baseUrl: string;
}

/** A person signed in to a project of their own: their login, access token and profile. */
export interface SignedInMember {
  projectId: string;
  membershipId: string;
  loginId: string;
  accessToken: string;
  profile: string;
}

/**
 * For a test file that must set what the shared test server cannot (a clock it moves, small limits):
 * `register` mounts the routes under test on a fastify server of its own, with the auth environment
 * of a migrated embedded database (no definitions loaded). Listening before the file's tests, closed
 * after them.
 */
export function embeddedRealtimeServer(
  name: string,
  register: (app: FastifyInstance, auth: AuthEnvironment, db: Database) => Promise<void>,
): () => EmbeddedRealtimeServer {
  const database = embeddedTestDatabase(name);
  let server: EmbeddedRealtimeServer | undefined;
  beforeAll(async () => {
    const db = database();
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}/`;
    const registry = definitionSearchParameters();
    const auth: AuthEnvironment = {
      repository: new Repository(db, registry),
      registry,
      keys: await SigningKeys.load(db, baseUrl),
      config: { baseUrl, registration: 'closed', emailProjectHourlyLimit: 0 } as AuthEnvironment['config'],
      sharedProjectId: randomUUID(),
      email: {
        mode: 'outbox',
        send: () => Promise.reject(new Error('No e-mail in realtime tests')),
      },
    };
    const app = Fastify();
    // As server/app.ts answers them: the status and OperationOutcome of a FhirError.
    app.setErrorHandler((error, _request, reply) =>
      error instanceof FhirError ? reply.code(error.status).send(error.outcome) : reply.send(error),
    );
    await register(app, auth, db);
    await app.listen({ port, host: '127.0.0.1' });
    server = { app, auth, baseUrl };
  }, 120_000);
  afterAll(async () => {
    await server?.app.close();
  });
  return () => {
    if (!server) throw new Error('The embedded realtime server is not listening yet');
    return server;
  };
}

/**
 * A Practitioner signed in with a password to a project of their own, written straight to the
 * database as the sign-in flow writes them (Project, Practitioner, ProjectMembership, a granted Login).
 */
export async function signedInMember(auth: AuthEnvironment, name: string): Promise<SignedInMember> {
  return auth.repository.transaction(async (session) => {
    const ctx = { projectId: randomUUID(), author: systemAuthor };
    await session.create(ctx, { resourceType: 'Project', name } as Resource, { id: ctx.projectId, fresh: true });
    const practitioner = await session.create(ctx, {
      resourceType: 'Practitioner',
      name: [{ family: name }],
    } as Resource);
    const profile = `Practitioner/${practitioner.id}`;
    const membership = await session.create(ctx, {
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${ctx.projectId}` },
      user: { reference: `User/${randomUUID()}` },
      profile: { reference: profile },
    } as Resource);
    const member = { projectId: ctx.projectId, membershipId: membership.id as string, profile };
    return { ...member, ...(await signIn(auth, session, member)) };
  });
}

/** Another sign-in of the same person (a Login of its own, as a second device or app would have). */
export function anotherSignIn(
  auth: AuthEnvironment,
  member: SignedInMember,
): Promise<{ loginId: string; accessToken: string }> {
  return auth.repository.transaction((session) => signIn(auth, session, member));
}

async function signIn(
  auth: AuthEnvironment,
  session: RepositorySession,
  member: Pick<SignedInMember, 'projectId' | 'membershipId'>,
): Promise<{ loginId: string; accessToken: string }> {
  const login = (await session.create(
    { projectId: member.projectId, author: systemAuthor },
    {
      resourceType: 'Login',
      user: { reference: `User/${randomUUID()}` },
      authMethod: 'password',
      authTime: new Date().toISOString(),
      scope: 'openid profile',
      granted: false,
      revoked: false,
      membership: { reference: `ProjectMembership/${member.membershipId}` },
    } as Login,
    { trusted: true },
  )) as Login;
  const tokens = await grantTokens(auth, session, login);
  return { loginId: login.id as string, accessToken: tokens.access_token };
}
