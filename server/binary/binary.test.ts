import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { baseUrl, http, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, registerUser, uniqueEmail } from '../../tests/integration/accounts';
import { pkcePair, signIn } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

const maxBytes = 100 * 1024 * 1024; // BINARY_MAX_BYTES default (the test server does not set it)

function authHeaders(token: string = inject('adminToken')): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** `size` bytes of a repeatable pattern, generated chunk by chunk (never all in memory), with its SHA-256. */
function generated(
  size: number,
  chunkSize = 1024 * 1024,
): { stream: ReadableStream<Uint8Array>; sha256: () => string } {
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) {
        controller.close();
        return;
      }
      const length = Math.min(chunkSize, size - sent);
      const chunk = Buffer.alloc(length);
      for (let i = 0; i < length; i += 4096) chunk[i] = ((sent + i) / 4096) % 256;
      if (length >= 4) chunk.writeUInt32BE(sent % 0xffffffff, 0);
      sent += length;
      hash.update(chunk);
      controller.enqueue(chunk);
    },
  });
  return { stream, sha256: () => hash.digest('hex') };
}

async function upload(
  body: BodyInit,
  contentType: string,
  query = '',
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(new URL(`fhir/R4/Binary${query}`, baseUrl()), {
    method: 'POST',
    headers: { ...authHeaders(), 'content-type': contentType, accept: 'application/fhir+json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function binaryCount(): Promise<number> {
  const answer = await http<any>('GET', 'fhir/R4/Binary?_summary=count');
  return answer.body.total as number;
}

function leftovers(): string[] {
  try {
    return readdirSync(join(inject('dataDir'), 'binary', '.incoming'));
  } catch {
    return [];
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('Binary upload and download', () => {
  let patientId: string;

  beforeAll(async () => {
    patientId = (
      await http<any>('POST', 'fhir/R4/Patient', { body: { resourceType: 'Patient', name: [{ family: 'Files' }] } })
    ).body.id;
  });

  it('stores raw bytes with _filename and X-Security-Context and gives back the same bytes and type', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255, 254]);
    const created = await upload(bytes, 'image/png', '?_filename=scan%20%C3%A9.png', {
      'x-security-context': `Patient/${patientId}`,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      resourceType: 'Binary',
      contentType: 'image/png',
      securityContext: { reference: `Patient/${patientId}` },
    });
    expect(created.body.data).toBeUndefined();
    expect(created.headers.get('location')).toContain(`Binary/${created.body.id}/_history/`);
    expect(created.body.url).toBe(
      `${baseUrl()}storage/${created.body.id}/${created.body.meta.versionId}${new URL(created.body.url).search}`,
    );
    expect(created.body.url).toMatch(/\?Expires=\d+&Signature=[\w-]+$/);

    const raw = await fetch(new URL(`fhir/R4/Binary/${created.body.id}`, baseUrl()), {
      headers: { ...authHeaders(), accept: '*/*' },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('image/png');
    expect(raw.headers.get('content-disposition')).toBe(
      `inline; filename="scan _.png"; filename*=UTF-8''scan%20%C3%A9.png`,
    );
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(bytes);

    const asJson = await http<any>('GET', `fhir/R4/Binary/${created.body.id}`);
    expect(asJson.status).toBe(200);
    expect(Buffer.from(asJson.body.data, 'base64')).toEqual(bytes);
    expect(asJson.body.contentType).toBe('image/png');
  });

  it('accepts a FHIR JSON Binary with base64 data, and PUT replaces the content as a new version', async () => {
    const created = await upload(
      JSON.stringify({
        resourceType: 'Binary',
        contentType: 'text/plain',
        data: Buffer.from('first').toString('base64'),
      }),
      'application/fhir+json',
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toBeUndefined();
    const id = created.body.id as string;
    const put = await fetch(new URL(`fhir/R4/Binary/${id}`, baseUrl()), {
      method: 'PUT',
      headers: { ...authHeaders(), 'content-type': 'text/plain' },
      body: 'second',
    });
    expect(put.status).toBe(200);
    const read = await fetch(new URL(`fhir/R4/Binary/${id}`, baseUrl()), { headers: authHeaders() });
    expect(await read.text()).toBe('second');
    const history = await http<any>('GET', `fhir/R4/Binary/${id}/_history`);
    expect(history.body.total).toBe(2);
    // Each version keeps its own content.
    const firstVersion = history.body.entry[1].resource.meta.versionId;
    const old = await fetch(new URL(`fhir/R4/Binary/${id}/_history/${firstVersion}`, baseUrl()), {
      headers: authHeaders(),
    });
    expect(await old.text()).toBe('first');
    const oldJson = await http<any>('GET', `fhir/R4/Binary/${id}/_history/${firstVersion}`);
    expect(Buffer.from(oldJson.body.data, 'base64').toString()).toBe('first');
  });

  it('takes one media type only: a list would be read as HTML by a browser, a line break breaks every download', async () => {
    const jsonBinary = (contentType: string) =>
      JSON.stringify({
        resourceType: 'Binary',
        contentType,
        data: Buffer.from('<h1>Sign in again</h1>').toString('base64'),
      });
    for (const contentType of ['image/png, text/html', 'text/html\nX-Injected: 1', 'text/plain;', 'image']) {
      const refused = await upload(jsonBinary(contentType), 'application/fhir+json');
      expect(refused.status, contentType).toBe(400);
      expect(refused.body.issue[0].expression).toEqual(['Binary.contentType']);
    }
    expect(leftovers()).toEqual([]);
    // A type that merely starts like an image one is not shown in the page: it downloads, sandboxed.
    const lookalike = await upload(jsonBinary('image/pngx'), 'application/fhir+json');
    expect(lookalike.status).toBe(201);
    const served = await fetch(new URL(`fhir/R4/Binary/${lookalike.body.id}`, baseUrl()), {
      headers: { ...authHeaders(), accept: '*/*' },
    });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/pngx');
    expect(served.headers.get('content-disposition')).toBe('attachment');
    expect(served.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    // Parameters are fine.
    const withCharset = await upload('plain', 'text/plain; charset=utf-8');
    expect(withCharset.status).toBe(201);
  });

  it('refuses bad input with a specific OperationOutcome', async () => {
    const badJson = await upload('{"resourceType":"Binary"}', 'application/fhir+json');
    expect(badJson.status).toBe(400);
    expect(issueText(badJson.body)).toBe('Missing contentType');
    const badData = await upload(
      '{"resourceType":"Binary","contentType":"text/plain","data":"%%%"}',
      'application/fhir+json',
    );
    expect(badData.status).toBe(400);
    expect(badData.body.issue[0].expression).toEqual(['Binary.data']);
    const badContext = await upload('x', 'text/plain', '', { 'x-security-context': 'not a reference' });
    expect(badContext.status).toBe(400);
    expect(issueText(badContext.body)).toContain('X-Security-Context');
    const unknownContext = await upload('x', 'text/plain', '', { 'x-security-context': 'Patient/does-not-exist' });
    expect(unknownContext.status).toBe(404);
    // A refused upload keeps nothing.
    expect(leftovers()).toEqual([]);
    const missing = await http('GET', 'fhir/R4/Binary/does-not-exist');
    expect(missing.status).toBe(404);
  });

  it('round-trips 50 MB byte for byte, streamed both ways', async () => {
    const size = 50 * 1024 * 1024 + 7;
    const source = generated(size);
    const created = await upload(source.stream as unknown as BodyInit, 'application/octet-stream');
    expect(created.status).toBe(201);
    const expected = source.sha256();
    const response = await fetch(new URL(`fhir/R4/Binary/${created.body.id}`, baseUrl()), {
      headers: { ...authHeaders(), accept: '*/*' },
    });
    expect(response.headers.get('content-length')).toBe(String(size));
    const hash = createHash('sha256');
    let received = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      received += chunk.length;
    }
    expect(received).toBe(size);
    expect(hash.digest('hex')).toBe(expected);
    // Too big to inline as base64 in FHIR JSON: a clear refusal, not a 50 MB JSON string.
    const asJson = await http('GET', `fhir/R4/Binary/${created.body.id}`);
    expect(asJson.status).toBe(406);
    expect(issueText(asJson.body)).toContain('Accept');
  });

  it('answers 413 above BINARY_MAX_BYTES and keeps neither a file nor a resource', async () => {
    const before = await binaryCount();
    // Streamed without a length: refused once the limit is passed.
    const streamed = await upload(
      generated(maxBytes + 1, 4 * 1024 * 1024).stream as unknown as BodyInit,
      'application/octet-stream',
    );
    expect(streamed.status).toBe(413);
    expect(streamed.body.issue[0].code).toBe('too-long');
    expect(issueText(streamed.body)).toContain(`${maxBytes} bytes`);
    // Declared too large: refused before the body is read.
    const declared = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(new URL('fhir/R4/Binary', baseUrl()), {
        method: 'POST',
        headers: {
          ...authHeaders(),
          'content-type': 'application/octet-stream',
          'content-length': String(maxBytes + 1),
        },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body });
          request.destroy();
        });
      });
      request.on('error', reject);
      request.write(Buffer.alloc(1024));
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).issue[0].code).toBe('too-long');
    // A FHIR JSON Binary is parsed in memory: it is held to MAX_BODY_BYTES (8 MiB on the test server).
    const json = `{"resourceType":"Binary","contentType":"text/plain","data":"${'A'.repeat(9 * 1024 * 1024)}"}`;
    const streamedJson = await upload(new Blob([json]).stream() as unknown as BodyInit, 'application/fhir+json');
    expect(streamedJson.status).toBe(413);
    expect(issueText(streamedJson.body)).toContain('MAX_BODY_BYTES');
    expect(leftovers()).toEqual([]);
    expect(await binaryCount()).toBe(before);
  });

  it('keeps nothing of an upload the client aborts', async () => {
    const before = await binaryCount();
    await new Promise<void>((resolve) => {
      const request = httpRequest(new URL('fhir/R4/Binary', baseUrl()), {
        method: 'POST',
        headers: { ...authHeaders(), 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' },
      });
      request.on('error', () => undefined);
      request.write(Buffer.alloc(1024 * 1024), () => {
        // Give the server the first megabyte, then go away.
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 100);
      });
    });
    await until(() => leftovers().length === 0, 'the aborted upload to be removed');
    expect(await binaryCount()).toBe(before);
  });

  it('follows the access policy: no Binary grant, no upload and no download', async () => {
    const owner = await registerProjectOwner('Binary Policy Clinic');
    const ownerUpload = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
      method: 'POST',
      headers: { ...authHeaders(owner.tokens.access_token), 'content-type': 'text/plain' },
      body: 'clinic file',
    });
    expect(ownerUpload.status).toBe(201);
    const ownerBinary = (await ownerUpload.json()) as { id: string };
    const email = uniqueEmail('nobinary');
    await registerUser(email, 'member password 1', pkcePair().challenge);
    const user = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
    const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: owner.tokens.access_token,
      body: { resourceType: 'AccessPolicy', name: 'Patients only', resource: [{ resourceType: 'Patient' }] },
    });
    const practitioner = await http<any>('POST', 'fhir/R4/Practitioner', {
      token: owner.tokens.access_token,
      body: { resourceType: 'Practitioner', name: [{ family: 'NoFiles' }] },
    });
    // Adding a user to a project is the super admin's (or an invitation's) job.
    const membership = await http('POST', 'fhir/R4/ProjectMembership', {
      body: {
        resourceType: 'ProjectMembership',
        project: { reference: `Project/${owner.projectId}` },
        user: { reference: `User/${user.body.entry[0].resource.id}` },
        profile: { reference: `Practitioner/${practitioner.body.id}` },
        accessPolicy: { reference: `AccessPolicy/${policy.body.id}` },
      },
    });
    expect(membership.status).toBe(201);
    const memberToken = (await signIn(baseUrl(), email, 'member password 1')).access_token;
    const before = leftovers();
    const refused = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
      method: 'POST',
      headers: { ...authHeaders(memberToken), 'content-type': 'text/plain' },
      body: 'not allowed',
    });
    expect(refused.status).toBe(403);
    expect(leftovers()).toEqual(before);
    const download = await fetch(new URL(`fhir/R4/Binary/${ownerBinary.id}`, baseUrl()), {
      headers: authHeaders(memberToken),
    });
    expect(download.status).toBe(403);
  });

  it('keeps Binaries within their project', async () => {
    const mine = await upload('private', 'text/plain');
    const other = await registerProjectOwner('Binary Elsewhere');
    const foreign = await fetch(new URL(`fhir/R4/Binary/${mine.body.id}`, baseUrl()), {
      headers: authHeaders(other.tokens.access_token),
    });
    expect(foreign.status).toBe(404);
    const anonymous = await fetch(new URL(`fhir/R4/Binary/${mine.body.id}`, baseUrl()));
    expect(anonymous.status).toBe(401);
  });
});

describe('signed attachment URLs', () => {
  let binaryId: string;

  beforeAll(async () => {
    binaryId = (await upload('attachment bytes', 'text/plain', '?_filename=note.txt')).body.id;
  });

  it('signs Binary attachment URLs on read, search, history and GraphQL, and stores Binary/{id}', async () => {
    const created = await http<any>('POST', 'fhir/R4/DocumentReference', {
      body: {
        resourceType: 'DocumentReference',
        status: 'current',
        content: [{ attachment: { contentType: 'text/plain', url: `Binary/${binaryId}`, title: 'note.txt' } }],
      },
    });
    expect(created.status).toBe(201);
    const signedUrl = created.body.content[0].attachment.url as string;
    expect(signedUrl).toMatch(new RegExp(`^${baseUrl()}storage/${binaryId}/[\\w-]+\\?Expires=\\d+&Signature=[\\w-]+$`));

    const read = await http<any>('GET', `fhir/R4/DocumentReference/${created.body.id}`);
    expect(read.body.content[0].attachment.url).toMatch(/\/storage\//);
    const search = await http<any>('GET', `fhir/R4/DocumentReference?_id=${created.body.id}`);
    expect(search.body.entry[0].resource.content[0].attachment.url).toMatch(/\/storage\//);
    const history = await http<any>('GET', `fhir/R4/DocumentReference/${created.body.id}/_history`);
    expect(history.body.entry[0].resource.content[0].attachment.url).toMatch(/\/storage\//);

    const graphql = await http<any>('POST', 'fhir/R4/$graphql', {
      body: { query: `{ DocumentReference(id: "${created.body.id}") { content { attachment { url } } } }` },
    });
    expect(graphql.body.data.DocumentReference.content[0].attachment.url).toMatch(/\/storage\//);

    // Writing the signed form back stores Binary/{id} again: the search on the stored URL still finds it.
    const updated = await http<any>('PUT', `fhir/R4/DocumentReference/${created.body.id}`, { body: read.body });
    expect(updated.status).toBe(200);
    const byStoredUrl = await http<any>('GET', `fhir/R4/DocumentReference?location=Binary/${binaryId}`);
    expect(byStoredUrl.body.entry.map((entry: any) => entry.resource.id)).toContain(created.body.id);

    // The link works without a token: what an <img> or a download link does.
    const content = await fetch(signedUrl);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('text/plain');
    expect(await content.text()).toBe('attachment bytes');
  });

  it('stores a url that only looks like a storage URL (a malformed escape) as written, without a 500', async () => {
    const url = `${baseUrl()}storage/%E0%A4%A`;
    const created = await http<any>('POST', 'fhir/R4/DocumentReference', {
      body: { resourceType: 'DocumentReference', status: 'current', content: [{ attachment: { url } }] },
    });
    expect(created.status).toBe(201);
    expect(created.body.content[0].attachment.url).toBe(url);
  });

  it('answers 403 to a tampered or expired-looking URL', async () => {
    const signed = new URL((await http<any>('GET', `fhir/R4/Binary/${binaryId}`)).body.url);
    const wrongSignature = new URL(signed);
    wrongSignature.searchParams.set('Signature', `${signed.searchParams.get('Signature')?.slice(0, -2)}AA`);
    const tampered = await fetch(wrongSignature);
    expect(tampered.status).toBe(403);
    expect(issueText(await tampered.json())).toBe('Invalid signature');
    const pastExpiry = new URL(signed);
    pastExpiry.searchParams.set('Expires', String(Math.floor(Date.now() / 1000) - 10));
    expect((await fetch(pastExpiry)).status).toBe(403);
    const otherBinary = new URL(signed.toString().replace(binaryId, 'another-id'));
    expect((await fetch(otherBinary)).status).toBe(403);
    const otherVersion = new URL(signed.toString().replace(/\/[\w-]+\?/, '/another-version?'));
    expect((await fetch(otherVersion)).status).toBe(403);
    const unsigned = await fetch(new URL(`storage/${binaryId}`, baseUrl()));
    expect(unsigned.status).toBe(403);
  });
});
