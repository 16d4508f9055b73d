import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { pkcePair } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

/**
 * Issue 14 item 19: /oauth2/authorize accepted any `aud`. SMART requires refusing an `aud` that is
 * not this server's FHIR base, so a token is never issued for a resource server the app did not name.
 */
describe('/oauth2/authorize checks aud', () => {
  let clientId: string;
  /** A client registered with SMART scopes as its `defaultScope` (used when a request names none). */
  let defaultScopeClientId: string;
  beforeAll(async () => {
    const owner = await registerProjectOwner();
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'SMART aud app', redirectUri: 'https://app.example/cb' },
    });
    clientId = client.body.id;
    const defaulted = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'ClientApplication',
        name: 'SMART app with default scopes',
        redirectUri: 'https://app.example/cb',
        defaultScope: ['openid', 'patient/*.rs'],
      },
    });
    defaultScopeClientId = defaulted.body.id;
  });

  async function authorize(extra: Record<string, string | string[]>, client = clientId) {
    const query = new URLSearchParams({
      client_id: client,
      redirect_uri: 'https://app.example/cb',
      response_type: 'code',
      state: 'st',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    for (const [key, value] of Object.entries(extra))
      for (const one of Array.isArray(value) ? value : [value]) query.append(key, one);
    const response = await fetch(`${baseUrl()}oauth2/authorize?${query}`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location') as string);
  }

  const fhirBase = () => `${baseUrl()}fhir/R4`;

  it('refuses another server, back at the app with error and state', async () => {
    for (const aud of ['https://evil.example/fhir/R4', `${baseUrl()}fhir/R5`, baseUrl(), `${fhirBase()}/Patient`]) {
      const back = await authorize({ aud, scope: 'openid patient/*.read' });
      expect(back.origin + back.pathname, aud).toBe('https://app.example/cb');
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toBe(`aud must be this server's FHIR base (${fhirBase()})`);
      expect(back.searchParams.get('state')).toBe('st');
    }
    const twice = await authorize({ aud: [fhirBase(), 'https://evil.example/fhir/R4'], scope: 'openid' });
    expect(twice.searchParams.get('error')).toBe('invalid_request');
  });

  it("accepts this server's FHIR base, with or without a trailing slash", async () => {
    for (const aud of [fhirBase(), `${fhirBase()}/`]) {
      const signIn = await authorize({ aud, scope: 'openid launch/patient patient/*.read' });
      expect(signIn.pathname).toBe('/oauth');
      expect(signIn.searchParams.get('error')).toBeNull();
    }
  });

  it('without aud: a plain OpenID sign-in goes on, a SMART scope request is refused', async () => {
    const plain = await authorize({ scope: 'openid profile' });
    expect(plain.pathname).toBe('/oauth');
    const smart = await authorize({ scope: 'openid patient/*.read' });
    expect(smart.searchParams.get('error')).toBe('invalid_request');
    expect(smart.searchParams.get('error_description')).toBe(
      `Missing aud: SMART apps must name this server's FHIR base (${fhirBase()})`,
    );
  });

  it("without aud and without scope: refused when the client's defaultScope asks for SMART scopes", async () => {
    const defaulted = await authorize({}, defaultScopeClientId);
    expect(defaulted.searchParams.get('error')).toBe('invalid_request');
    expect(defaulted.searchParams.get('error_description')).toBe(
      `Missing aud: SMART apps must name this server's FHIR base (${fhirBase()})`,
    );
    // Its own plain scope is not replaced by the default.
    expect((await authorize({ scope: 'openid profile' }, defaultScopeClientId)).pathname).toBe('/oauth');
    expect((await authorize({ aud: fhirBase() }, defaultScopeClientId)).pathname).toBe('/oauth');
  });

  it('answers prompt=none with interaction_required (the page is always needed), and refuses unknown prompts', async () => {
    const silent = await authorize({ aud: fhirBase(), scope: 'openid patient/*.read', prompt: 'none' });
    expect(silent.origin + silent.pathname).toBe('https://app.example/cb');
    expect(silent.searchParams.get('error')).toBe('interaction_required');
    expect(silent.searchParams.get('state')).toBe('st');
    expect(silent.searchParams.get('code')).toBeNull();
    const unknown = await authorize({ aud: fhirBase(), scope: 'openid', prompt: 'login quietly' });
    expect(unknown.searchParams.get('error')).toBe('invalid_request');
    expect(unknown.searchParams.get('error_description')).toBe(
      'Unknown prompt "quietly": use none, login, consent or select_account',
    );
    const again = await authorize({ aud: fhirBase(), scope: 'openid', prompt: 'login consent' });
    expect(again.pathname).toBe('/oauth');
    expect(again.searchParams.get('prompt')).toBe('login consent');
  });
});
