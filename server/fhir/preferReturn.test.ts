import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { http, issueText } from '../../tests/integration/fhirClient';

interface Res {
  resourceType: string;
  id: string;
  meta: { versionId: string; lastUpdated: string };
  [key: string]: unknown;
}

interface Entry {
  resource?: Res;
  response?: { status: string; location?: string; etag?: string; outcome?: Res };
}

const patient = (family: string) => ({ resourceType: 'Patient', name: [{ family }], gender: 'female' });

/** FHIR R4 RESTful API §3.1.0.4.1: `Prefer: return=minimal | representation | OperationOutcome` on writes. */
describe('Prefer: return= on create, update and patch', () => {
  it('answers return=minimal with the status and Location/ETag/Last-Modified but no body', async () => {
    const created = await http<string>('POST', 'fhir/R4/Patient', {
      body: patient('Minimal'),
      headers: { prefer: 'return=minimal' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toBeUndefined();
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(/\/fhir\/R4\/Patient\/[^/]+\/_history\/[^/]+$/);
    expect(created.headers.get('etag')).toMatch(/^W\/"[^"]+"$/);
    expect(created.headers.get('last-modified')).toBeTruthy();
    // Stored all the same.
    const id = /Patient\/([^/]+)\//.exec(location)![1];
    const read = await http<Res>('GET', `fhir/R4/Patient/${id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(created.headers.get('etag'));

    const updated = await http<string>('PUT', `fhir/R4/Patient/${id}`, {
      body: { ...patient('Minimal2'), id },
      headers: { prefer: 'return=minimal' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toBeUndefined();
    expect(updated.headers.get('etag')).not.toBe(created.headers.get('etag'));

    const patched = await http<string>('PATCH', `fhir/R4/Patient/${id}`, {
      rawBody: JSON.stringify([{ op: 'replace', path: '/gender', value: 'male' }]),
      headers: { 'content-type': 'application/json-patch+json', prefer: 'return=minimal' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toBeUndefined();
    expect(patched.headers.get('etag')).toMatch(/^W\/"[^"]+"$/);
    expect((await http<Res>('GET', `fhir/R4/Patient/${id}`)).body.gender).toBe('male');
  });

  it('answers return=OperationOutcome with an informational OperationOutcome about the write', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', {
      body: patient('Outcome'),
      headers: { prefer: 'return=OperationOutcome' },
    });
    expect(created.status).toBe(201);
    expect(created.body.resourceType).toBe('OperationOutcome');
    const id = /Patient\/([^/]+)\//.exec(created.headers.get('location') ?? '')![1];
    expect(issueText(created.body)).toContain(`Created Patient/${id}`);
    expect(created.headers.get('etag')).toMatch(/^W\/"[^"]+"$/);

    const patched = await http<Res>('PATCH', `fhir/R4/Patient/${id}`, {
      rawBody: JSON.stringify([{ op: 'replace', path: '/gender', value: 'male' }]),
      headers: { 'content-type': 'application/json-patch+json', prefer: 'return=OperationOutcome' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.resourceType).toBe('OperationOutcome');
    expect(issueText(patched.body)).toContain(`Patched Patient/${id}`);
  });

  it('keeps return=representation (and no Prefer) answering the resource', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', {
      body: patient('Represented'),
      headers: { prefer: 'return=representation' },
    });
    expect(created.status).toBe(201);
    expect(created.body.resourceType).toBe('Patient');
    const plain = await http<Res>('PUT', `fhir/R4/Patient/${created.body.id}`, { body: created.body });
    expect(plain.body.resourceType).toBe('Patient');
  });

  it('applies to a conditional create and a conditional update', async () => {
    const marker = randomUUID();
    const body = { ...patient('Conditional'), identifier: [{ system: 'urn:test', value: marker }] };
    const first = await http<string>('POST', 'fhir/R4/Patient', {
      body,
      headers: { prefer: 'return=minimal', 'if-none-exist': `identifier=urn:test|${marker}` },
    });
    expect(first.status).toBe(201);
    expect(first.body).toBeUndefined();
    const again = await http<Res>('POST', 'fhir/R4/Patient', {
      body,
      headers: { prefer: 'return=OperationOutcome', 'if-none-exist': `identifier=urn:test|${marker}` },
    });
    expect(again.status).toBe(200);
    expect(issueText(again.body)).toContain('matched If-None-Exist; nothing was created');

    const update = await http<string>('PUT', `fhir/R4/Patient?identifier=urn:test|${marker}`, {
      body: { ...body, gender: 'other' },
      headers: { prefer: 'return=minimal' },
    });
    expect(update.status).toBe(200);
    expect(update.body).toBeUndefined();
    expect(update.headers.get('etag')).toMatch(/^W\/"[^"]+"$/);
  });

  it('still answers an error as an OperationOutcome under return=minimal', async () => {
    const refused = await http<Res>('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', gender: 'not-a-gender' },
      headers: { prefer: 'return=minimal' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.resourceType).toBe('OperationOutcome');
  });

  it('shapes the write entries of a batch, and keeps what its reads answer', async () => {
    const existing = await http<Res>('POST', 'fhir/R4/Patient', { body: patient('BatchRead') });
    const batch = {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { resource: patient('BatchCreate'), request: { method: 'POST', url: 'Patient' } },
        { request: { method: 'GET', url: `Patient/${existing.body.id}` } },
      ],
    };
    const outcome = await http<{ entry: Entry[] }>('POST', 'fhir/R4', {
      body: batch,
      headers: { prefer: 'return=OperationOutcome' },
    });
    expect(outcome.status).toBe(200);
    const [created, read] = outcome.body.entry;
    expect(created.resource).toBeUndefined();
    expect(created.response?.status).toBe('201');
    expect(created.response?.outcome?.resourceType).toBe('OperationOutcome');
    expect(issueText(created.response?.outcome)).toMatch(/^Created Patient\//);
    expect(read.resource?.id).toBe(existing.body.id);

    const minimal = await http<{ entry: Entry[] }>('POST', 'fhir/R4', {
      body: batch,
      headers: { prefer: 'return=minimal' },
    });
    expect(minimal.body.entry[0].resource).toBeUndefined();
    expect(minimal.body.entry[0].response?.outcome).toBeUndefined();
    expect(minimal.body.entry[0].response?.etag).toMatch(/^W\/"/);
    expect(minimal.body.entry[1].resource?.id).toBe(existing.body.id);
  });
});
