import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { registerProjectOwner, tokenRequest } from '../../tests/integration/accounts';
import { freePort } from '../../tests/integration/freePort';

/* eslint-disable @typescript-eslint/no-explicit-any -- OAuth and FHIR answers are free-form JSON */

/**
 * Outside review, SSRF by a project admin: URLs a project stores on a ClientApplication are fetched
 * by the server — its `jwksUri` when a client assertion names it, its identity provider's
 * `userInfoUrl` at a token exchange (with a subject token the caller chose as bearer). Before the
 * fix the server fetched any address (loopback, private, cloud metadata) and its errors told a
 * closed port ("fetch failed") from an open one ("JSON Web Key Set malformed", "Expected 200 OK"):
 * a port scanner of the server's network. Now both go through the outbound address rule of bots'
 * fetch (server/net/outboundAddress.ts) and every failure is one answer.
 *
 * The test server lists 127.0.0.1:{outboundTestPort} in BOT_FETCH_ALLOWED_HOSTS: there runs a
 * stand-in for a public server; every other loopback port is internal.
 */

const keySetRefusal = {
  status: 401,
  body: { error: 'invalid_client', error_description: "The client's key set could not be fetched" },
};
const subjectRefusal = {
  status: 400,
  body: { error: 'invalid_grant', error_description: 'The identity provider did not accept the subject token' },
};

/** What an internal service received (it must receive nothing). */
const internalRequests: { url?: string; authorization?: string }[] = [];
let internal: Server;
let internalPort: number;
let closedPort: number;
let listed: Server;
let listedBase: string;
let publicKeys: Record<string, unknown>[] = [];
let owner: Awaited<ReturnType<typeof registerProjectOwner>>;

function listedHandler(request: IncomingMessage, response: ServerResponse) {
  const path = new URL(request.url ?? '/', listedBase).pathname;
  const json = (status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (path.endsWith('/status-500')) return json(500, { error: 'boom' });
  if (path.endsWith('/status-404')) return json(404, { keys: publicKeys, sub: 'someone' });
  if (path.endsWith('/malformed')) return json(200, { keys: 'not a list' });
  if (path.endsWith('/not-json')) return response.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
  if (path.endsWith('/no-subject')) return json(200, { email: 'someone@test.example' });
  if (path.endsWith('/huge')) {
    return json(200, { keys: publicKeys, sub: 'someone', email: owner.email, padding: 'x'.repeat(400 * 1024) });
  }
  if (path.endsWith('/to-internal')) {
    return response.writeHead(302, { location: `http://127.0.0.1:${internalPort}/internal-admin?via=redirect` }).end();
  }
  if (path.endsWith('/jwks')) return json(200, { keys: publicKeys });
  return json(404, {});
}

beforeAll(async () => {
  owner = await registerProjectOwner('SSRF Attacker Project');
  internal = createServer((request, response) => {
    internalRequests.push({ url: request.url, authorization: request.headers.authorization });
    // Whatever it would answer, a valid key set and identity included, must not matter.
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ keys: publicKeys, sub: 'internal', email: owner.email }));
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalPort = (internal.address() as { port: number }).port;
  closedPort = await freePort();
  const listedPort = inject('outboundTestPort');
  listedBase = `http://127.0.0.1:${listedPort}/`;
  listed = createServer(listedHandler);
  await new Promise<void>((resolve) => listed.listen(listedPort, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => internal.close(resolve));
  await new Promise((resolve) => listed.close(resolve));
});

async function newClient(body: Record<string, unknown>): Promise<string> {
  const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
    token: owner.tokens.access_token,
    body: { resourceType: 'ClientApplication', name: 'Attacker app', ...body },
  });
  expect(client.status, JSON.stringify(client.body)).toBe(201);
  return client.body.id as string;
}

describe('a client assertion whose jwksUri is internal (attack A)', () => {
  let privateKey: CryptoKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    publicKeys = [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }];
  });

  /** `POST oauth2/token` (client_credentials) with an assertion signed as the client whose jwksUri is `jwksUri`. */
  async function assertAs(jwksUri: string) {
    const clientId = await newClient({ jwksUri });
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(`${baseUrl()}oauth2/token`)
      .setIssuedAt()
      .setExpirationTime('2m')
      .setJti(crypto.randomUUID())
      .sign(privateKey);
    return tokenRequest({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    });
  }

  it('never requests a loopback address, and answers it like a closed port', async () => {
    internalRequests.length = 0;
    const open = await assertAs(`http://127.0.0.1:${internalPort}/internal-admin?x=1`);
    const closed = await assertAs(`http://127.0.0.1:${closedPort}/internal-admin?x=1`);
    expect(internalRequests).toEqual([]);
    expect(open).toEqual(keySetRefusal);
    expect(closed).toEqual(open);
  });

  it('refuses loopback by name, IPv6, the metadata address and private ranges before connecting', async () => {
    internalRequests.length = 0;
    for (const uri of [
      `http://localhost:${internalPort}/jwks`,
      `http://[::ffff:127.0.0.1]:${internalPort}/jwks`,
      `http://[::1]:${internalPort}/jwks`,
      `http://0.0.0.0:${internalPort}/jwks`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/jwks',
      `file:///etc/passwd`,
    ]) {
      expect(await assertAs(uri), uri).toEqual(keySetRefusal);
    }
    expect(internalRequests).toEqual([]);
  });

  it('one answer for a status other than 200, a malformed, non-JSON or too large set, and a redirect inside', async () => {
    internalRequests.length = 0;
    for (const path of ['status-500', 'status-404', 'malformed', 'not-json', 'huge', 'to-internal']) {
      expect(await assertAs(`${listedBase}${path}`), path).toEqual(keySetRefusal);
    }
    // The redirect was not followed to the internal address.
    expect(internalRequests).toEqual([]);
  });

  it('still verifies assertions against a key set at an address it may reach', async () => {
    // A URL of its own: key sets are cached by URL (signInFlow.test.ts serves other keys at /jwks on this port).
    const answer = await assertAs(`${listedBase}jwks?for=projectUrlFetch`);
    // The key set was read and the signature checked: what is missing now is the client's membership.
    expect(answer.body).toEqual({ error: 'invalid_client', error_description: 'The client has no project membership' });
  });
});

describe('a token exchange whose identity provider is internal (attack B)', () => {
  async function exchangeAt(userInfoUrl: string) {
    const clientId = await newClient({
      identityProvider: {
        authorizeUrl: `${userInfoUrl}/authorize`,
        tokenUrl: `${userInfoUrl}/token`,
        userInfoUrl,
        clientId: 'x',
        clientSecret: 'x',
      },
    });
    return tokenRequest({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      client_id: clientId,
      subject_token: 'attacker-chosen-bearer',
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    });
  }

  it('never sends the chosen bearer token to a loopback address, and answers it like a closed port', async () => {
    internalRequests.length = 0;
    const open = await exchangeAt(`http://127.0.0.1:${internalPort}/internal-admin`);
    const closed = await exchangeAt(`http://127.0.0.1:${closedPort}/internal-admin`);
    expect(internalRequests).toEqual([]);
    expect(open).toEqual(subjectRefusal);
    expect(closed).toEqual(open);
  });

  it('one answer for a status other than 200, no JSON, no subject, too large, and a redirect inside', async () => {
    internalRequests.length = 0;
    for (const path of ['status-500', 'status-404', 'not-json', 'no-subject', 'huge', 'to-internal']) {
      expect(await exchangeAt(`${listedBase}${path}`), path).toEqual(subjectRefusal);
    }
    expect(internalRequests).toEqual([]);
  });
});
