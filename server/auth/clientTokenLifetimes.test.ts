import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, signInThroughClient, tokenRequest } from '../../tests/integration/accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const lifetimeText =
  'A token lifetime is a positive number of seconds, or a number followed by s, m, h, d or w (30m, 1h, 2w)';

/**
 * ClientApplication.refreshTokenLifetime (Medplum's field) was ignored: an administrator who set it
 * to end an app's unused sessions sooner saw refresh tokens keep working for a day or two weeks. And
 * an unreadable lifetime was stored and silently replaced by the default.
 */
describe("a ClientApplication's token lifetimes", () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  beforeAll(async () => {
    owner = await registerProjectOwner();
  });

  const createClient = (body: Record<string, unknown>) =>
    http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', redirectUri: 'https://app.example/cb', ...body },
    });

  /** The owner signs in through the client (PKCE, as a public app does) and gets its tokens. */
  async function signInThrough(clientId: string) {
    const tokens = await signInThroughClient(owner.email, owner.password, clientId);
    expect(tokens.status).toBe(200);
    return tokens.body;
  }

  const refresh = (clientId: string, refreshToken: string) =>
    tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

  it('refuses an unreadable lifetime with the field path, and stores nothing', async () => {
    const name = `Bad lifetimes ${Date.now()}`;
    const refused = await createClient({ name, accessTokenLifetime: 'soon', refreshTokenLifetime: '1.5h' });
    expect(refused.status).toBe(400);
    expect(issueExpressions(refused.body)).toEqual([
      'ClientApplication.accessTokenLifetime',
      'ClientApplication.refreshTokenLifetime',
    ]);
    expect(issueText(refused.body)).toContain(lifetimeText);
    const found = await http<any>('GET', `fhir/R4/ClientApplication?name:exact=${encodeURIComponent(name)}`, {
      token: owner.tokens.access_token,
    });
    expect(found.body.entry ?? []).toHaveLength(0);
    // An update is checked the same way, and leaves the saved client as it was.
    const saved = await createClient({ name, refreshTokenLifetime: '2w' });
    expect(saved.status).toBe(201);
    const update = await http<any>('PUT', `fhir/R4/ClientApplication/${saved.body.id}`, {
      token: owner.tokens.access_token,
      body: { ...saved.body, refreshTokenLifetime: '0' },
    });
    expect(update.status).toBe(400);
    expect(issueExpressions(update.body)).toEqual(['ClientApplication.refreshTokenLifetime']);
    const after = await http<any>('GET', `fhir/R4/ClientApplication/${saved.body.id}`, {
      token: owner.tokens.access_token,
    });
    expect(after.body.refreshTokenLifetime).toBe('2w');
  });

  it("ends a refresh token its client's refreshTokenLifetime after it was issued", async () => {
    const client = await createClient({ name: 'Kiosk app', refreshTokenLifetime: '2s' });
    expect(client.status).toBe(201);
    const tokens = await signInThrough(client.body.id);
    // At once: the token works and a new one comes with the answer.
    const fresh = await refresh(client.body.id, tokens.refresh_token);
    expect(fresh.status).toBe(200);
    // Left unused past its lifetime: refused, as an expired refresh token.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    const late = await refresh(client.body.id, fresh.body.refresh_token);
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ error: 'invalid_grant', error_description: 'Refresh token expired' });
  });

  it('leaves the sign-in limits alone for a client without one, or with a longer one', async () => {
    const signedIn = [];
    for (const lifetime of [undefined, '30d']) {
      const client = await createClient({ name: `App ${lifetime ?? 'default'}`, refreshTokenLifetime: lifetime });
      signedIn.push({ lifetime, clientId: client.body.id, tokens: await signInThrough(client.body.id) });
    }
    // The wait that ended the kiosk app's token above.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    for (const { lifetime, clientId, tokens } of signedIn)
      expect((await refresh(clientId, tokens.refresh_token)).status, String(lifetime)).toBe(200);
  });
});
