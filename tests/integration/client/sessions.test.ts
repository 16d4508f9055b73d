import type { AccessPolicy, ClientApplication, Patient } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { MemoryStorage } from '../../../data-provider/client';
import { OperationOutcomeError } from '../../../data-provider/outcomes';
import { createFhirAuthProvider, SignInStepRequired } from '../../../data-provider/react-admin';
import { totpCode } from '../../../server/auth/totp';
import { http } from '../fhirClient';
import { identityProviderFor, startOidcProvider, type TestOidcProvider } from '../oidcProvider';
import { postJson, registerProjectOwner, registerUser, uniqueEmail } from '../accounts';
import { pkcePair } from '../signIn';
import { ownerClient, signInWithClient, testClient } from './clientSession';

async function failure(promise: Promise<unknown>): Promise<OperationOutcomeError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OperationOutcomeError);
  return error as OperationOutcomeError;
}

/** The same token with a broken signature: the client reads its claims as valid, the server refuses it. */
function forged(accessToken: string): string {
  const [header, payload, signature] = accessToken.split('.');
  const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
  return `${header}.${payload}.${flipped}`;
}

describe('FhirClient against the server: sessions', () => {
  it('a 401 gets exactly one refresh and the call is retried with the new token', async () => {
    const { client, sent } = await ownerClient({ autoBatchTime: 0 });
    const patient = await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Refresh' }] });
    const login = client.getActiveLogin();
    expect(login?.refreshToken).toBeTruthy();
    client.setAccessToken(forged(login?.accessToken as string), login?.refreshToken);
    sent.length = 0;

    const read = await client.readResource('Patient', patient.id as string);
    expect(read.id).toBe(patient.id);
    expect(sent.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      `GET /fhir/R4/Patient/${patient.id} 401`,
      'POST /oauth2/token 200',
      `GET /fhir/R4/Patient/${patient.id} 200`,
    ]);
    expect(client.getAccessToken()).not.toBe(forged(login?.accessToken as string));
    // The refresh token was rotated: the stored login holds the new one.
    expect(client.getActiveLogin()?.refreshToken).not.toBe(login?.refreshToken);
  });

  it('concurrent 401s share one refresh', async () => {
    const { client, sent } = await ownerClient({ autoBatchTime: 0 });
    const login = client.getActiveLogin();
    client.setAccessToken(forged(login?.accessToken as string), login?.refreshToken);
    sent.length = 0;
    const answers = await Promise.all([
      client.search('Patient', { _count: '1' }),
      client.search('Practitioner', { _count: '1' }),
      client.search('Observation', { _count: '1' }),
    ]);
    expect(answers.every((bundle) => bundle.resourceType === 'Bundle')).toBe(true);
    expect(sent.filter((request) => request.path === '/oauth2/token')).toHaveLength(1);
  });

  it('a refresh that fails ends the session: login cleared, onUnauthenticated, the call rejected', async () => {
    const onUnauthenticated = vi.fn();
    const { client, sent } = await ownerClient({ autoBatchTime: 0, onUnauthenticated });
    const login = client.getActiveLogin();
    client.setAccessToken(forged(login?.accessToken as string), 'not-a-refresh-token');
    sent.length = 0;
    const error = await failure(client.search('Patient', { _count: '1' }));
    expect(error.status).toBe(401);
    expect(error.message).toBe('Unauthorized');
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    expect(client.getActiveLogin()).toBeUndefined();
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /fhir/R4/Patient?_count=1',
      'POST /oauth2/token',
    ]);
  });

  it('an expired token is renewed before the call when there is a refresh token, refused when there is none', async () => {
    const { client, sent } = await ownerClient({ autoBatchTime: 0 });
    const refreshToken = client.getActiveLogin()?.refreshToken;
    // The server signed this token and it has expired (tests/integration/serverSetup.ts).
    const expired = inject('expiredToken');
    client.setAccessToken(expired, refreshToken);
    sent.length = 0;
    await client.search('Patient', { _count: '1' });
    expect(sent.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      'POST /oauth2/token 200',
      'GET /fhir/R4/Patient?_count=1 200',
    ]);

    const bare = testClient({ autoBatchTime: 0 }).client;
    expect((await failure(Promise.resolve().then(() => bare.setAccessToken(expired)))).message).toBe('Token expired');
    expect(bare.getActiveLogin()).toBeUndefined();
    // And the server says the same to anyone presenting it.
    const refused = await http('GET', 'fhir/R4/Patient', { token: expired });
    expect(refused.status).toBe(401);
  });

  it('a token for another audience: refused by a client with a client id, and by the server for one without', async () => {
    const foreign = inject('foreignAudienceToken');
    const strict = testClient({ clientId: 'hearth-web', autoBatchTime: 0 }).client;
    expect((await failure(Promise.resolve().then(() => strict.setAccessToken(foreign)))).message).toBe(
      'token not issued for this audience',
    );
    expect(strict.getActiveLogin()).toBeUndefined();

    // Without a client id the client sends it; the server's 401 cannot be cured without a refresh token.
    const onUnauthenticated = vi.fn();
    const { client: lenient, sent } = testClient({ autoBatchTime: 0, onUnauthenticated });
    lenient.setAccessToken(foreign);
    const error = await failure(lenient.search('Patient'));
    expect(error.status).toBe(401);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    expect(lenient.getActiveLogin()).toBeUndefined();
    expect(sent.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
      'GET /fhir/R4/Patient 401',
    ]);
  });

  it('several logins at once: switching changes who the calls act as', async () => {
    const storage = new MemoryStorage();
    const first = await registerProjectOwner();
    const second = await registerProjectOwner();
    const { client } = testClient({ storage, autoBatchTime: 0 });
    await signInWithClient(client, first.email, first.password);
    const firstPatient = await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'First' }] });
    const firstLogin = client.getActiveLogin();
    await signInWithClient(client, second.email, second.password);
    const secondLogin = client.getActiveLogin();
    expect(client.getLogins()).toHaveLength(2);
    expect(client.getProject()?.id).toBe(second.projectId);
    // Another project's patient is invisible to the second account.
    expect((await failure(client.readResource('Patient', firstPatient.id as string))).status).toBe(404);

    await client.setActiveLogin(firstLogin as NonNullable<typeof firstLogin>);
    expect(client.getProject()?.id).toBe(first.projectId);
    expect((await client.readResource('Patient', firstPatient.id as string)).id).toBe(firstPatient.id);

    // Sign-out ends the active login on the server too; the other stays usable.
    const firstToken = client.getAccessToken() as string;
    await client.signOut();
    expect(client.getActiveLogin()).toBeUndefined();
    expect(client.getLogins()).toHaveLength(1);
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: firstToken })).status).toBe(401);
    await client.setActiveLogin(secondLogin as NonNullable<typeof secondLogin>);
    expect((await client.search('Patient', { _count: '1' })).resourceType).toBe('Bundle');
  });

  it("a wrong password keeps the server's message and starts no session", async () => {
    const owner = await registerProjectOwner();
    const onUnauthenticated = vi.fn();
    const { client } = testClient({ onUnauthenticated });
    const error = await failure(client.startLogin({ email: owner.email, password: 'wrong password' }));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.message).toMatch(/password/i);
    expect(client.getActiveLogin()).toBeUndefined();
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('new user and new project through the client', async () => {
    const { client } = testClient();
    const email = `client-${Date.now()}@test.example`;
    const registered = await client.startNewUser({
      firstName: 'Nia',
      lastName: 'New',
      email,
      password: 'a long password 1',
    });
    const project = await client.startNewProject({ login: registered.login, projectName: 'Client Clinic' });
    await client.processCode(project.code as string);
    expect(client.getProject()?.name).toBe('Client Clinic');
    expect(client.isProjectAdmin()).toBe(true);
  });

  it('new patient through the client; canAccess agrees with what the server then allows', async () => {
    const { client: ownerSession, owner } = await ownerClient();
    const policy = await ownerSession.createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      name: 'Patients',
      resource: [
        { resourceType: '*', compartment: { reference: '%profile' } },
        { resourceType: 'Practitioner', readonly: true },
      ],
    });
    const project = await ownerSession.readResource('Project', owner.projectId);
    await ownerSession.updateResource({
      ...project,
      defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.id}` },
    });

    const { client } = testClient({ autoBatchTime: 0 });
    const registered = await client.startNewUser({
      firstName: 'Pat',
      lastName: 'Ient',
      email: uniqueEmail('patient'),
      password: 'patient password 1',
    });
    const answer = await client.startNewPatient({ login: registered.login, projectId: owner.projectId });
    await client.processCode(answer.code as string);
    expect(client.getProfile()?.resourceType).toBe('Patient');

    const auth = createFhirAuthProvider(client);
    const can = (resource: string, action: string) => auth.canAccess!({ resource, action });
    expect(await can('Observation', 'create')).toBe(true);
    expect(await can('Practitioner', 'list')).toBe(true);
    expect(await can('Practitioner', 'edit')).toBe(false);
    expect(await can('ProjectMembership', 'list')).toBe(false);
    // The server decides the same.
    expect((await client.search('Practitioner', { _count: '1' })).resourceType).toBe('Bundle');
    const practitioner = await failure(client.createResource({ resourceType: 'Practitioner' }));
    expect(practitioner.status).toBe(403);
    expect((await failure(client.search('ProjectMembership'))).status).toBe(403);
  });

  it('two-factor sign-in through the authProvider: the MFA step, a wrong code, the right one', async () => {
    const { client: ownerSession, owner } = await ownerClient();
    const status = await ownerSession.get<{ enrollUri: string }>(`${ownerSession.getBaseUrl()}auth/mfa/status`);
    const secret = new URL(status.enrollUri).searchParams.get('secret') as string;
    await ownerSession.post(
      `${ownerSession.getBaseUrl()}auth/mfa/enroll`,
      { token: totpCode(secret) },
      'application/json',
    );

    const { client } = testClient();
    const auth = createFhirAuthProvider(client);
    const step = await auth.login({ email: owner.email, password: owner.password }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(step).toBeInstanceOf(SignInStepRequired);
    expect((step as SignInStepRequired).step).toBe('mfa');
    const login = (step as SignInStepRequired).login;
    await expect(auth.login({ login, mfaCode: '000000' })).rejects.toThrow('Invalid MFA code');
    expect(client.getActiveLogin()).toBeUndefined();
    // The next step's code: the one that enrolled is used up (a code is accepted once).
    await auth.login({ login, mfaCode: totpCode(secret, Date.now() + 30_000) });
    expect(client.getProject()?.id).toBe(owner.projectId);
  });

  it("Google sign-in answers the server's refusal when it is not configured", async () => {
    const { client } = testClient();
    const error = await failure(client.startGoogleLogin({ googleClientId: 'x', googleCredential: 'y' }));
    expect(error.message).toContain('Google sign-in is not enabled');
  });

  it('client_credentials: a ClientApplication signs in as itself', async () => {
    const { client: ownerSession, owner } = await ownerClient();
    const app = await ownerSession.createResource<ClientApplication>({
      resourceType: 'ClientApplication',
      name: 'Client test app',
      secret: 'client-app-secret-123',
    });
    await ownerSession.createResource({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${owner.projectId}` },
      user: { reference: `ClientApplication/${app.id}` },
      profile: { reference: `ClientApplication/${app.id}` },
    });
    const { client } = testClient();
    const profile = await client.startClientLogin(app.id as string, 'client-app-secret-123');
    expect(profile).toMatchObject({ resourceType: 'ClientApplication', id: app.id });
    expect((await client.search('Patient', { _count: '1' })).resourceType).toBe('Bundle');
    const wrong = testClient().client;
    const refused = await failure(wrong.startClientLogin(app.id as string, 'nope'));
    expect(refused.status).toBe(401);
    expect(wrong.getActiveLogin()).toBeUndefined();
  });
});

describe('sign-in by an external identity provider, through the authProvider callback', () => {
  let provider: TestOidcProvider;
  beforeAll(async () => {
    provider = await startOidcProvider();
  });
  afterAll(async () => provider.close());

  it('auth/method → the provider → the server → handleCallback exchanges the code', async () => {
    const domain = `client-sso-${Date.now()}.example`;
    const email = `doctor@${domain}`;
    const login = await registerUser(email, 'unused password 1', pkcePair().challenge);
    await postJson('auth/newproject', { login, projectName: 'Client SSO Clinic' });
    const configured = await http('POST', 'fhir/R4/DomainConfiguration', {
      body: {
        resourceType: 'DomainConfiguration',
        domain,
        identityProvider: identityProviderFor(provider),
      },
    });
    expect(configured.status).toBe(201);
    provider.person = { sub: 'client-ext-1', email };

    const { client } = testClient();
    const method = await client.getAuthMethod({ email, redirectUri: `${inject('baseUrl')}auth-callback` });
    expect(method.method).toBe('external');
    const atProvider = await fetch(method.authorizeUrl as string, { redirect: 'manual' });
    const atServer = await fetch(atProvider.headers.get('location') as string, { redirect: 'manual' });
    const back = new URL(atServer.headers.get('location') as string);
    expect(back.searchParams.get('code')).toBeTruthy();

    const auth = createFhirAuthProvider(client, {
      currentLocation: () => ({ search: back.search, origin: back.origin, pathname: back.pathname }),
    });
    expect(await auth.handleCallback!()).toEqual({ redirectTo: '/' });
    expect(client.getActiveLogin()).toBeDefined();
    expect(await auth.getIdentity!()).toMatchObject({ fullName: expect.stringContaining('Test') });
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    expect(await auth.logout({})).toBe('/signin');
    await expect(auth.checkAuth({})).rejects.toMatchObject({ redirectTo: '/signin' });
  });
});
