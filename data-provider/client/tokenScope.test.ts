import { describe, expect, it, vi } from 'vitest';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { FakeFetch, fakeJwt, jsonResponse, type RecordedCall } from './fakeFetch';
import { FhirClient } from './fhirClient';
import { MemoryStorage } from './clientStorage';

/**
 * Where the access token goes (this server's API only), and what `download` fetches (this server's
 * files only): an attachment address is written by whoever sent it, and a patient once signed
 * clinicians out with `oauth2/logout` as a chat attachment's address.
 */

const server = 'http://ehr.test/';
const fhir = `${server}fhir/R4/`;
const token = fakeJwt({ login_id: 'l1', exp: Math.floor(Date.now() / 1000) + 3600 });

/** Signed in, against a server answering everything; `routes` come first. */
function signedIn(routes: (fake: FakeFetch) => void = () => undefined) {
  const fake = new FakeFetch();
  routes(fake);
  fake.on('GET', /.*/, () => jsonResponse({ resourceType: 'Patient', id: 'p' }));
  fake.on('POST', /.*/, () => jsonResponse({ ok: true }));
  const onUnauthenticated = vi.fn();
  const client = new FhirClient({
    baseUrl: server,
    fetch: fake.fetch,
    storage: new MemoryStorage(),
    autoBatchTime: 0,
    cacheTime: 0,
    onUnauthenticated,
  });
  client.setAccessToken(token, 'refresh-1');
  return { fake, client, onUnauthenticated };
}

const bearer = (call: RecordedCall | undefined) => call?.headers.authorization;

async function rejection(promise: Promise<unknown>): Promise<OperationOutcomeError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OperationOutcomeError);
  return error as OperationOutcomeError;
}

describe('the access token goes to this server’s API only', () => {
  it('is sent to the FHIR base and the auth, admin, e-mail and key-value routes', async () => {
    const { fake, client } = signedIn();
    const urls = [
      `${fhir}Patient/p`,
      `${fhir}Binary/b1`,
      `${server}fhir/R4`,
      `${server}auth/me`,
      `${server}admin/projects/p1`,
      `${server}email/v1/send`,
      `${server}keyvalue/v1/theme`,
    ];
    for (const url of urls) await client.get(url);
    expect(fake.calls.map((call) => [call.url, bearer(call)])).toEqual(urls.map((url) => [url, `Bearer ${token}`]));
  });

  it('is never sent to another origin, another route of this origin, or through a path that only looks like the API', async () => {
    const { fake, client, onUnauthenticated } = signedIn();
    const urls = [
      `${server}oauth2/logout`,
      `${server}oauth2/userinfo`,
      `${server}storage/b1/1?Expires=1&Signature=x`,
      `${server}healthcheck`,
      `${server}fhir/R4x/Patient`,
      `${server}authx/me`,
      `${fhir}../../oauth2/logout`,
      `${fhir}%2e%2e/%2E%2E/oauth2/logout`,
      'http://ehr.test:8080/fhir/R4/Patient/p',
      'https://ehr.test/fhir/R4/Patient/p',
      'http://evil.example/fhir/R4/Patient/p',
      'http://ehr.test.evil.example/fhir/R4/Patient/p',
      'http://user:pass@ehr.test/fhir/R4/Patient/p',
    ];
    for (const url of urls) await client.get(url).catch(() => undefined);
    expect(fake.calls).toHaveLength(urls.length);
    expect(fake.calls.filter((call) => bearer(call) !== undefined).map((call) => call.url)).toEqual([]);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('a 401 from an address that got no token says nothing about the session: no refresh, still signed in', async () => {
    const { fake, client, onUnauthenticated } = signedIn((routes) =>
      routes.once('GET', `${server}oauth2/userinfo`, () => jsonResponse({ resourceType: 'OperationOutcome' }, 401)),
    );
    await rejection(client.get(`${server}oauth2/userinfo`));
    expect(fake.callsTo('POST', /oauth2\/token/)).toEqual([]);
    expect(client.getAccessToken()).toBe(token);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('signing out still tells the server, with the token (the one call to oauth2/logout that means it)', async () => {
    const { fake, client } = signedIn();
    await client.signOut();
    expect(bearer(fake.callsTo('POST', `${server}oauth2/logout`)[0])).toBe(`Bearer ${token}`);
  });
});

describe('download fetches this server’s files only', () => {
  it('a Binary (relative, absolute, a version) and a bulk export file with the token', async () => {
    const { fake, client } = signedIn();
    await client.download('Binary/b1');
    await client.download(`${fhir}Binary/b1`);
    await client.download('Binary/b1/_history/2');
    await client.download(`${fhir}bulkdata/export/job1/Patient.ndjson`);
    expect(fake.calls.map((call) => [call.url, bearer(call)])).toEqual([
      [`${fhir}Binary/b1`, `Bearer ${token}`],
      [`${fhir}Binary/b1`, `Bearer ${token}`],
      [`${fhir}Binary/b1/_history/2`, `Bearer ${token}`],
      [`${fhir}bulkdata/export/job1/Patient.ndjson`, `Bearer ${token}`],
    ]);
  });

  it('a signed storage address of this server without the token (the signature is the permission)', async () => {
    const { fake, client } = signedIn();
    const signed = `${server}storage/b1/3?Expires=1900000000&Signature=abc`;
    await client.download(signed);
    expect(fake.calls.map((call) => [call.url, bearer(call)])).toEqual([[signed, undefined]]);
  });

  it('a data: raster image decoded without a request', async () => {
    const { fake, client } = signedIn();
    const blob = await client.download('data:image/png;base64,iVBORw0KGgo=');
    expect(blob.type).toBe('image/png');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(fake.calls).toEqual([]);
  });

  it('refuses, without any request, every other address: the logout route, other routes and origins, script and HTML', async () => {
    const { fake, client, onUnauthenticated } = signedIn();
    const refused = [
      `${server}oauth2/logout`,
      'http://localhost:8461/oauth2/logout',
      `${server}auth/me`,
      `${fhir}Patient/p`,
      `${fhir}Patient/$export`,
      `${fhir}Binary/b1?_format=json`,
      `${fhir}Binary/../../oauth2/logout`,
      `${fhir}Binary/%2e%2e/%2e%2e/oauth2/logout`,
      'Binary/..',
      'Binary/../../oauth2/logout',
      '../../oauth2/logout',
      '/oauth2/logout',
      '//evil.example/x.pdf',
      'https://evil.example/lab-report.pdf',
      'javascript:alert(document.domain)',
      ' JaVaScRiPt:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:image/svg+xml,<svg onload="alert(1)"/>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
    ];
    for (const url of refused) {
      const error = await rejection(client.download(url));
      expect(error.message).toContain('Not a file of this server');
    }
    expect(fake.calls).toEqual([]);
    expect(client.getAccessToken()).toBe(token);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });
});

describe('fileAddress: what an attachment address is', () => {
  const { client } = signedIn();
  it.each([
    ['Binary/b1', 'server', `${fhir}Binary/b1`],
    [`${fhir}Binary/b1`, 'server', `${fhir}Binary/b1`],
    [`${server}storage/b1/1?Expires=1&Signature=x`, 'signed', `${server}storage/b1/1?Expires=1&Signature=x`],
    ['data:image/jpeg;base64,/9j/', 'inline', 'data:image/jpeg;base64,/9j/'],
    [`${server}oauth2/logout`, 'external', `${server}oauth2/logout`],
    [`${fhir}Patient/p`, 'external', `${fhir}Patient/p`],
    [`${server}storage/`, 'external', `${server}storage/`],
    ['https://evil.example/a.pdf', 'external', 'https://evil.example/a.pdf'],
    ['javascript:alert(1)', 'unsafe', ''],
    ['data:text/html,hi', 'unsafe', ''],
    ['data:image/svg+xml,<svg/>', 'unsafe', ''],
    ['Patient/p', 'unsafe', ''],
    ['mailto:a@b.example', 'unsafe', ''],
  ])('%s is %s', (url, kind, href) => {
    expect(client.fileAddress(url)).toEqual({ kind, href });
  });
});
