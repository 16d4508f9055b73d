/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
import { get, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { baseUrl, http } from '../tests/integration/fhirClient';

/** Issue 14 item 17: every answer, app and API, carries the security headers. */
async function headersOf(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(new URL(path, baseUrl()), init);
  await response.arrayBuffer();
  return response;
}

/** A conditional GET as a browser revalidating its cache sends it (node:http: nothing in between). */
function conditionalGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = get(new URL(path, baseUrl()), { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    request.on('error', reject);
  });
}

function expectCommon(response: Response, what: string) {
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('x-frame-options'), what).toBe('DENY');
  expect(response.headers.get('referrer-policy'), what).toBe('no-referrer');
}

function directives(policy: string | null): Record<string, string> {
  const parsed: Record<string, string> = {};
  for (const part of (policy ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) parsed[name] = values.join(' ');
  }
  return parsed;
}

describe('security headers', () => {
  it('the web app page (and its client-side routes) gets a CSP that lets the built app run', async () => {
    for (const path of ['', 'Patient/123/show', 'oauth?client_id=x']) {
      const page = await headersOf(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type'), path).toContain('text/html');
      expectCommon(page, path);
      const csp = directives(page.headers.get('content-security-policy'));
      const socket = `ws://${new URL(baseUrl()).host}`;
      expect(csp, path).toEqual({
        'default-src': "'self'",
        'script-src': "'self'",
        'style-src': "'self' 'unsafe-inline'",
        'img-src': "'self' data: blob:",
        'font-src': "'self' data:",
        'connect-src': `'self' ${socket}`,
        'frame-src': 'https://my.staging.dosespot.com https://my.dosespot.com',
        'worker-src': "'self' blob:",
        'object-src': "'none'",
        'base-uri': "'self'",
        'form-action': "'self'",
        'frame-ancestors': "'none'",
      });
    }
    const script = await headersOf('assets/app.js');
    expect(script.status).toBe(200);
    expectCommon(script, 'asset');
    // A revalidated page (304, no content type) keeps the app's policy: browsers apply the 304's headers.
    const first = await headersOf('');
    const validators: Record<string, string> = {};
    const etag = first.headers.get('etag');
    const modified = first.headers.get('last-modified');
    if (etag) validators['if-none-match'] = etag;
    if (modified) validators['if-modified-since'] = modified;
    expect(Object.keys(validators).length).toBeGreaterThan(0);
    const revalidated = await conditionalGet('', validators);
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers['content-type']).toBeUndefined();
    expect(revalidated.headers['content-security-policy']).toBe(first.headers.get('content-security-policy'));
    expect(revalidated.headers['x-frame-options']).toBe('DENY');
  });

  it('API answers, errors included, are never framed, sniffed or treated as pages', async () => {
    const answers = [
      ['metadata', await headersOf('fhir/R4/metadata')],
      ['unauthenticated', await headersOf('fhir/R4/Patient')],
      ['health', await headersOf('healthcheck')],
      ['unknown API path', await headersOf('fhir/nothing-here')],
      [
        'bad JSON',
        await headersOf('auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      ],
    ] as const;
    for (const [what, response] of answers) {
      expectCommon(response, what);
      expect(response.headers.get('content-security-policy'), what).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    expect(answers[1][1].status).toBe(401);
    expect(answers[4][1].status).toBe(400);
  });

  it('FHIR reads are never kept by the browser: a read after a write cannot come from a stale copy', async () => {
    const created = await http<any>('POST', 'fhir/R4/Patient', { body: { resourceType: 'Patient', gender: 'female' } });
    expect(created.status).toBe(201);
    const token = inject('adminToken');
    const read = await headersOf(`fhir/R4/Patient/${created.body.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.status).toBe(200);
    // Last-Modified alone would let a browser answer the next read heuristically from its cache.
    expect(read.headers.get('last-modified')).toBeTruthy();
    expect(read.headers.get('cache-control')).toBe('no-store');
    const search = await headersOf('fhir/R4/Patient?_count=1', { headers: { authorization: `Bearer ${token}` } });
    expect(search.headers.get('cache-control')).toBe('no-store');
    // The web app's own files may still be cached (the build names its assets by content hash).
    expect((await headersOf('')).headers.get('cache-control')).not.toBe('no-store');
  });

  it('Binary downloads keep their stricter sandbox policy', async () => {
    const upload = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
      method: 'POST',
      headers: { authorization: `Bearer ${inject('adminToken')}`, 'content-type': 'text/html' },
      body: '<script>alert(document.cookie)</script>',
    });
    const binary = (await upload.json()) as { id: string };
    const download = await headersOf(`fhir/R4/Binary/${binary.id}`, {
      headers: { authorization: `Bearer ${inject('adminToken')}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expectCommon(download, 'binary');
    const document = await http<any>('POST', 'fhir/R4/DocumentReference', {
      body: {
        resourceType: 'DocumentReference',
        status: 'current',
        content: [{ attachment: { contentType: 'text/html', url: `Binary/${binary.id}` } }],
      },
    });
    const signed = await headersOf(document.body.content[0].attachment.url);
    expect(signed.status).toBe(200);
    expect(signed.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expectCommon(signed, 'signed binary');
  });
});
