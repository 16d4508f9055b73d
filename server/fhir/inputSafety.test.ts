import { request as httpRequest } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** A request whose path is sent byte for byte (fetch would resolve `..` before sending). */
function rawRequest(
  method: string,
  path: string,
  body: string,
  contentType = 'application/fhir+json',
): Promise<{ status: number; body: any }> {
  const url = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          authorization: `Bearer ${inject('adminToken')}`,
          'content-type': contentType,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `{ extension: [{ extension: [ … ] }] }` nested `levels` deep. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { url: 'https://example.org/leaf', valueString: 'leaf' };
  for (let i = 0; i < levels; i++) value = { url: 'https://example.org/level', extension: [value] };
  return value;
}

describe('JSON nested too deep is refused with 400 before any walk (issue 14 item 13)', () => {
  const deep = nested(2000);

  it('on a create, a batch, a JSON Patch and GraphQL variables', async () => {
    const create = await http('POST', 'fhir/R4/Patient', { body: { resourceType: 'Patient', extension: [deep] } });
    expect(create.status).toBe(400);
    expect(issueText(create.body)).toBe('The JSON is nested more than 100 levels deep');
    expect(issueExpressions(create.body)[0]).toMatch(/^Patient\.extension\[0\]\.extension\[0\]/);

    const batch = await http('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [{ request: { method: 'POST', url: 'Basic' }, resource: { resourceType: 'Basic', extension: [deep] } }],
      },
    });
    expect(batch.status).toBe(400);

    const patient = await http<any>('POST', 'fhir/R4/Patient', { body: { resourceType: 'Patient', active: true } });
    const patch = await http('PATCH', `fhir/R4/Patient/${patient.body.id}`, {
      headers: { 'content-type': 'application/json-patch+json' },
      body: [{ op: 'add', path: '/extension', value: [deep] }],
    });
    expect(patch.status).toBe(400);
    expect(issueExpressions(patch.body)[0]).toMatch(/^\$\[0\]\.value\[0\]/);

    const graphql = await http('POST', 'fhir/R4/$graphql', {
      headers: { 'content-type': 'application/json' },
      body: { query: '{ PatientList(_count: 1) { id } }', variables: { deep } },
    });
    expect(graphql.status).toBe(400);

    // Nothing was written, and a resource nested within the limit is still fine.
    expect((await http<any>('GET', `fhir/R4/Patient/${patient.body.id}`)).body.extension).toBeUndefined();
    const fine = await http('POST', 'fhir/R4/Patient', { body: { resourceType: 'Patient', extension: [nested(20)] } });
    expect(fine.status).toBe(201);
  });
});

describe('NUL characters and unpaired surrogates answer 400 with the path (issue 14 item 15)', () => {
  it('in a resource string, a property name and a Bundle entry', async () => {
    const nul = await http('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', name: [{ family: 'Nul\u0000Family' }] },
    });
    expect(nul.status).toBe(400);
    expect(issueText(nul.body)).toContain('NUL');
    expect(issueExpressions(nul.body)).toEqual(['Patient.name[0].family']);

    // JSON.stringify would escape a lone surrogate the same way; written out to be sure of the bytes.
    const surrogate = await http('POST', 'fhir/R4/Patient', {
      rawBody: '{"resourceType":"Patient","name":[{"given":["ok","half \\ud83d pair"]}]}',
      headers: { 'content-type': 'application/fhir+json' },
    });
    expect(surrogate.status).toBe(400);
    expect(issueText(surrogate.body)).toContain('unpaired UTF-16 surrogate');
    expect(issueExpressions(surrogate.body)).toEqual(['Patient.name[0].given[1]']);

    const lowAlone = await http('POST', 'fhir/R4/Patient', {
      rawBody: '{"resourceType":"Patient","gender":"\\ude00"}',
      headers: { 'content-type': 'application/fhir+json' },
    });
    expect(lowAlone.status).toBe(400);
    expect(issueExpressions(lowAlone.body)).toEqual(['Patient.gender']);

    const key = await http('POST', 'fhir/R4/Patient', { body: { resourceType: 'Patient', ['a\u0000b']: 1 } });
    expect(key.status).toBe(400);

    const inBundle = await http('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          { request: { method: 'POST', url: 'Patient' }, resource: { resourceType: 'Patient', gender: '\u0000' } },
        ],
      },
    });
    expect(inBundle.status).toBe(400);
    expect(issueExpressions(inBundle.body)).toEqual(['Bundle.entry[0].resource.gender']);

    // A well-formed pair (an emoji) is a normal character.
    const emoji = await http<any>('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', name: [{ family: 'Smile \ud83d\ude00' }] },
    });
    expect(emoji.status).toBe(201);
    expect(emoji.body.name[0].family).toBe('Smile \ud83d\ude00');
  });

  it('in a search parameter value, in the URL, a form body and a batch entry', async () => {
    const inQuery = await http('GET', 'fhir/R4/Patient?name=a%00b');
    expect(inQuery.status).toBe(400);
    expect(issueExpressions(inQuery.body)).toEqual(['name']);

    const inForm = await http('POST', 'fhir/R4/Patient/_search', {
      rawBody: 'family=x%00y',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(inForm.status).toBe(400);
    expect(issueExpressions(inForm.body)).toEqual(['family']);

    const batch = await http<any>('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'GET', url: 'Patient?name=a%00b' } },
          { request: { method: 'GET', url: 'Patient?name=%ED%A0%80' } },
          { request: { method: 'GET', url: 'Patient?_count=1' } },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.entry[0].response.status).toBe('400');
    expect(batch.body.entry[2].response.status).toBe('200');
    expect(batch.body.entry[1].response.status).not.toBe('500');
  });

  it('in an id', async () => {
    const read = await http('GET', 'fhir/R4/Patient/a%00b');
    expect(read.status).toBe(400);
    expect(issueExpressions(read.body)).toEqual(['Patient.id']);
    const put = await http('PUT', 'fhir/R4/Patient/a%00b', { body: { resourceType: 'Patient', id: 'a\u0000b' } });
    expect(put.status).toBe(400);
    expect(issueExpressions(put.body).length).toBeGreaterThan(0);
    const searchById = await http('GET', 'fhir/R4/Patient?_id=x%00');
    expect(searchById.status).toBe(400);
    expect(issueExpressions(searchById.body)).toEqual(['_id']);
  });
});

describe('ids must be FHIR ids that are safe as file names (issue 14 item 16)', () => {
  const stagingFiles = () => {
    try {
      return readdirSync(join(inject('dataDir'), 'binary', '.incoming'));
    } catch {
      return [];
    }
  };

  it('refuses PUT Resource/.. and .hidden, literally and URL-encoded', async () => {
    const body = (id: string) => JSON.stringify({ resourceType: 'Patient', id, active: true });
    for (const [path, id] of [
      ['/fhir/R4/Patient/..', '..'],
      ['/fhir/R4/Patient/%2E%2E', '..'],
      ['/fhir/R4/Patient/%2e', '.'],
      ['/fhir/R4/Patient/.hidden', '.hidden'],
      ['/fhir/R4/Patient/%2Ehidden', '.hidden'],
    ] as const) {
      const answer = await rawRequest('PUT', path, body(id));
      expect(answer.status, path).toBe(400);
      expect(issueExpressions(answer.body), path).toEqual(['Patient.id']);
    }
    // Dots inside an id stay legal FHIR ids.
    const dotted = await rawRequest('PUT', '/fhir/R4/Patient/a.b-1', body('a.b-1'));
    expect([200, 201]).toContain(dotted.status);
  });

  it('refuses Binary/.incoming and Binary/.. (the upload staging folder)', async () => {
    const before = stagingFiles();
    for (const path of ['/fhir/R4/Binary/.incoming', '/fhir/R4/Binary/%2Eincoming', '/fhir/R4/Binary/..']) {
      const answer = await rawRequest('PUT', path, 'not for the staging folder', 'text/plain');
      expect(answer.status, path).toBe(400);
      expect(issueExpressions(answer.body), path).toEqual(['Binary.id']);
    }
    const asJson = await rawRequest(
      'PUT',
      '/fhir/R4/Binary/.incoming',
      JSON.stringify({ resourceType: 'Binary', id: '.incoming', contentType: 'text/plain', data: 'eA==' }),
    );
    expect(asJson.status).toBe(400);
    expect(stagingFiles()).toEqual(before);
    expect((await http('GET', 'fhir/R4/Binary?_id=.incoming')).status).not.toBe(500);
  });

  it('refuses such ids in batch and transaction entries', async () => {
    const batch = await http<any>('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'PUT', url: 'Patient/..' }, resource: { resourceType: 'Patient', id: '..' } },
          { request: { method: 'PUT', url: 'Patient/%2E%2E' }, resource: { resourceType: 'Patient', id: '..' } },
          {
            request: { method: 'PUT', url: 'Binary/.incoming' },
            resource: { resourceType: 'Binary', id: '.incoming', contentType: 'text/plain' },
          },
          { request: { method: 'DELETE', url: 'Patient/.x' } },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.entry.map((entry: any) => entry.response.status)).toEqual(['400', '400', '400', '400']);

    const transaction = await http<any>('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          { request: { method: 'POST', url: 'Patient' }, resource: { resourceType: 'Patient', active: true } },
          { request: { method: 'PUT', url: 'Patient/.hidden' }, resource: { resourceType: 'Patient', id: '.hidden' } },
        ],
      },
    });
    expect(transaction.status).toBe(400);
    expect(issueExpressions(transaction.body)[0]).toMatch(/^Bundle\.entry\[1\]/);
    expect((await http('GET', 'fhir/R4/Patient/.hidden')).status).toBe(400);
  });
});
