import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, tokenRequest } from '../../tests/integration/accounts';
import { pkcePair } from '../../tests/integration/signIn';
import { keyValueCall } from './keyValueCall.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

/** Status and text only: these tests compare whole answers. */
const call = (method: string, key: string, token: string, body?: string) =>
  keyValueCall(method, key, token, body).then(({ status, text }) => ({ status, text }));

/**
 * Key-value storage was one space per user: a third-party app the user signed into with narrow
 * SMART scopes read the visit-note draft the web app kept there, and overwrote or deleted another
 * app's values. Each application now has its own space for the same user; the web app keeps the
 * space it always had.
 */
describe('/keyvalue/v1 keeps each application of a user apart', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let webApp: string;
  let appA: string;
  let appB: string;

  /** The owner signs in through a ClientApplication with a narrow SMART scope, as a public app does. */
  async function signInThroughApp(name: string, scope: string): Promise<string> {
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: webApp,
      body: { resourceType: 'ClientApplication', name, redirectUri: 'https://app.example/cb' },
    });
    expect(client.status).toBe(201);
    const { verifier, challenge } = pkcePair();
    let step = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      clientId: client.body.id,
      scope,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    if (step.body.scopes) step = await postJson('auth/scope', { login: step.body.login, scope });
    expect(typeof step.body.code).toBe('string');
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: step.body.code,
      code_verifier: verifier,
      client_id: client.body.id,
    });
    expect(tokens.status).toBe(200);
    return tokens.body.access_token;
  }

  beforeAll(async () => {
    owner = await registerProjectOwner('Key Apps Clinic');
    webApp = owner.tokens.access_token;
    appA = await signInThroughApp('App A', 'openid user/Observation.read');
    appB = await signInThroughApp('App B', 'openid user/Patient.read');
  });

  it('app B cannot read, overwrite or delete the value app A stored for the same user', async () => {
    expect((await call('PUT', 'settings', appA, 'a-value')).status).toBe(204);
    expect((await call('GET', 'settings', appB)).status).toBe(404);
    expect((await call('PUT', 'settings', appB, 'b-value')).status).toBe(204);
    expect((await call('DELETE', 'settings', appB)).status).toBe(204);
    expect(await call('GET', 'settings', appA)).toEqual({ status: 200, text: 'a-value' });
  });

  it("a narrow-scoped app neither reads nor changes the web app's values, and the web app keeps them", async () => {
    expect((await call('PUT', 'visit-note/draft', webApp, 'Patient says…')).status).toBe(204);
    expect((await call('GET', 'visit-note/draft', appA)).status).toBe(404);
    expect((await call('PUT', 'visit-note/draft', appA, 'overwritten')).status).toBe(204);
    expect((await call('DELETE', 'visit-note/draft', appB)).status).toBe(204);
    expect(await call('GET', 'visit-note/draft', webApp)).toEqual({ status: 200, text: 'Patient says…' });
    // Nor does the web app see what an app stored.
    expect(await call('GET', 'visit-note/draft', appA)).toEqual({ status: 200, text: 'overwritten' });
    expect((await call('GET', 'settings', webApp)).status).toBe(404);
  });
});
