import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small OpenID Connect provider on loopback for sign-in tests: authorize (redirects back at once
 * as the configured person), token (checks client secret and PKCE) and userinfo.
 */
export interface TestOidcProvider {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the provider next. */
  person: { sub: string; email: string };
  /** Published at /jwks: the keys a ClientApplication signs its assertions with. */
  jwks: { keys: Record<string, unknown>[] };
  /** What the token endpoint received last (to check PKCE and client authentication). */
  lastTokenRequest?: URLSearchParams & { authorization?: string };
  close(): Promise<void>;
}

/**
 * Starts the provider on loopback: on `port` when given (a port the server lists in
 * BOT_FETCH_ALLOWED_HOSTS, `inject('outboundTestPort')`, for what the server fetches from a
 * ClientApplication's URLs: jwksUri, token exchange's userinfo), else on any free port (enough for a
 * DomainConfiguration's provider, which a super admin configures).
 */
export async function startOidcProvider(port = 0): Promise<TestOidcProvider> {
  const codes = new Map<string, { challenge?: string; redirectUri: string }>();
  const tokens = new Map<string, { sub: string; email: string }>();
  const provider: TestOidcProvider = {
    url: '',
    clientId: 'hearth-test-client',
    clientSecret: randomBytes(12).toString('hex'),
    person: { sub: 'external-1', email: 'someone@example.org' },
    jwks: { keys: [] },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', provider.url);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      if (url.searchParams.get('client_id') !== provider.clientId) return json(400, { error: 'unauthorized_client' });
      const code = randomBytes(16).toString('hex');
      codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? undefined, redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { location: back.toString() });
      return response.end();
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(body) as TestOidcProvider['lastTokenRequest'] & URLSearchParams;
        form.authorization = request.headers.authorization;
        provider.lastTokenRequest = form;
        const expectedBasic = `Basic ${Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString('base64')}`;
        if (request.headers.authorization !== expectedBasic && form.get('client_secret') !== provider.clientSecret) {
          return json(401, { error: 'invalid_client' });
        }
        const entry = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!entry) return json(400, { error: 'invalid_grant', error_description: 'unknown code' });
        if (entry.challenge) {
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== entry.challenge) {
            return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
          }
        }
        const accessToken = randomBytes(16).toString('hex');
        tokens.set(accessToken, { ...provider.person });
        return json(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300 });
      });
      return;
    }
    if (url.pathname === '/jwks') return json(200, provider.jwks);
    if (url.pathname === '/userinfo') {
      const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      const person = token ? tokens.get(token) : undefined;
      if (!person) return json(401, { error: 'invalid_token' });
      return json(200, person);
    }
    return json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return provider;
}

/** Lets tests hand out access tokens of the provider directly (token exchange). */
export async function providerAccessToken(provider: TestOidcProvider): Promise<string> {
  const authorize = await fetch(
    `${provider.url}authorize?client_id=${provider.clientId}&redirect_uri=${encodeURIComponent('http://127.0.0.1/cb')}`,
    { redirect: 'manual' },
  );
  const code = new URL(authorize.headers.get('location') as string).searchParams.get('code') as string;
  const response = await fetch(`${provider.url}token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, client_secret: provider.clientSecret }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The `identityProvider` of a DomainConfiguration that signs in at `provider` (with PKCE). */
export function identityProviderFor(provider: TestOidcProvider) {
  return {
    authorizeUrl: `${provider.url}authorize`,
    tokenUrl: `${provider.url}token`,
    userInfoUrl: `${provider.url}userinfo`,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    usePkce: true,
  };
}
