import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { http, issueText } from '../../tests/integration/fhirClient';

interface Res {
  resourceType: string;
  id: string;
  meta: {
    versionId: string;
    lastUpdated: string;
    author?: { reference?: string };
    project?: string;
    compartment?: { reference: string }[];
    tag?: { system?: string; code?: string }[];
  };
  [key: string]: unknown;
}

function newPatient(family = `Crud${randomUUID().slice(0, 8)}`) {
  return { resourceType: 'Patient', name: [{ family, given: ['Ada'] }], birthDate: '1980-02-29', gender: 'female' };
}

describe('FHIR REST create / read / vread', () => {
  it('creates with a server-assigned UUID and full meta, ignoring a client id', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', { body: { ...newPatient(), id: 'client-chosen' } });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.body.id).not.toBe('client-chosen');
    expect(created.body.meta.versionId).toBeTruthy();
    expect(Date.parse(created.body.meta.lastUpdated)).toBeGreaterThan(Date.now() - 60_000);
    // The author is the signed-in caller's profile (the super admin's Practitioner).
    expect(created.body.meta.author?.reference).toMatch(/^Practitioner\//);
    expect(created.body.meta.project).toBeTruthy();
    expect(created.body.meta.compartment).toEqual([{ reference: `Patient/${created.body.id}` }]);
    expect(created.headers.get('etag')).toBe(`W/"${created.body.meta.versionId}"`);
    expect(created.headers.get('location')).toContain(
      `fhir/R4/Patient/${created.body.id}/_history/${created.body.meta.versionId}`,
    );
    expect(created.headers.get('content-type')).toContain('application/fhir+json');

    const read = await http<Res>('GET', `fhir/R4/Patient/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it("puts an Observation in its patient's compartment", async () => {
    const patient = await http<Res>('POST', 'fhir/R4/Patient', { body: newPatient() });
    const observation = await http<Res>('POST', 'fhir/R4/Observation', {
      body: {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'Weight' },
        subject: { reference: `Patient/${patient.body.id}` },
        valueQuantity: { value: 70, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
      },
    });
    expect(observation.status).toBe(201);
    expect(observation.body.meta.compartment).toEqual([{ reference: `Patient/${patient.body.id}` }]);
  });

  it('replaces a compartment the client sent with the one the server derives, keeping the rest of meta', async () => {
    // meta.compartment decides what a patient-scoped policy may read: a client must not choose it.
    const patient = await http<Res>('POST', 'fhir/R4/Patient', { body: newPatient() });
    const forged = { compartment: [{ reference: 'Patient/someone-else' }], tag: [{ system: 'urn:t', code: 'kept' }] };
    const observation = await http<Res>('POST', 'fhir/R4/Observation', {
      body: {
        resourceType: 'Observation',
        meta: forged,
        status: 'final',
        code: { text: 'Weight' },
        subject: { reference: `Patient/${patient.body.id}` },
      },
    });
    expect(observation.status).toBe(201);
    expect(observation.body.meta.compartment).toEqual([{ reference: `Patient/${patient.body.id}` }]);
    expect(observation.body.meta.tag).toEqual(forged.tag);
    const organization = await http<Res>('POST', 'fhir/R4/Organization', {
      body: { resourceType: 'Organization', name: 'No patient here', meta: forged },
    });
    expect(organization.status).toBe(201);
    expect(organization.body.meta.compartment).toBeUndefined();
    const read = await http<Res>('GET', `fhir/R4/Organization/${organization.body.id}`);
    expect(read.body.meta.compartment).toBeUndefined();
    expect(read.body.meta.tag).toEqual(forged.tag);
  });

  it("answers 404 with the spec's OperationOutcome for a missing resource", async () => {
    const read = await http('GET', `fhir/R4/Patient/${randomUUID()}`);
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'not-found', details: { text: 'Not found' } }],
    });
  });

  it('refuses an unknown resource type and a malformed id', async () => {
    const unknownType = await http('GET', 'fhir/R4/Pateint/123');
    expect(unknownType.status).toBe(404);
    expect(issueText(unknownType.body)).toBe('Unknown resource type "Pateint"');
    const create = await http('POST', 'fhir/R4/Pateint', { body: { resourceType: 'Pateint' } });
    expect(create.status).toBe(404);
    const badId = await http('GET', `fhir/R4/Patient/${'x'.repeat(65)}`);
    expect(badId.status).toBe(400);
    expect(issueText(badId.body)).toContain('Invalid id');
  });

  it('refuses a body whose resourceType does not match the URL', async () => {
    const answer = await http('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Observation', status: 'final', code: { text: 'x' } },
    });
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toContain('does not match the URL');
  });

  it('reads old versions with vread', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', { body: newPatient() });
    const updated = await http<Res>('PUT', `fhir/R4/Patient/${created.body.id}`, {
      body: { ...created.body, gender: 'other' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.meta.versionId).not.toBe(created.body.meta.versionId);
    const v1 = await http<Res>('GET', `fhir/R4/Patient/${created.body.id}/_history/${created.body.meta.versionId}`);
    expect(v1.status).toBe(200);
    expect(v1.body.gender).toBe('female');
    const v2 = await http<Res>('GET', `fhir/R4/Patient/${created.body.id}/_history/${updated.body.meta.versionId}`);
    expect(v2.body.gender).toBe('other');
    const missing = await http('GET', `fhir/R4/Patient/${created.body.id}/_history/${randomUUID()}`);
    expect(missing.status).toBe(404);
  });
});

describe('FHIR REST update and optimistic locking', () => {
  it('updates with a matching If-Match and refuses a stale one without writing', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', { body: newPatient() });
    const etag = created.headers.get('etag') as string;
    const first = await http<Res>('PUT', `fhir/R4/Patient/${created.body.id}`, {
      body: { ...created.body, gender: 'male' },
      headers: { 'if-match': etag },
    });
    expect(first.status).toBe(200);

    const stale = await http('PUT', `fhir/R4/Patient/${created.body.id}`, {
      body: { ...created.body, gender: 'unknown' },
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    expect(issueText(stale.body)).toContain('Version mismatch');

    const read = await http<Res>('GET', `fhir/R4/Patient/${created.body.id}`);
    expect(read.body.gender).toBe('male');
    expect(read.body.meta.versionId).toBe(first.body.meta.versionId);
  });

  it('creates on PUT to an unused id (update as create)', async () => {
    const id = `put-${randomUUID()}`;
    const answer = await http<Res>('PUT', `fhir/R4/Patient/${id}`, { body: { ...newPatient(), id } });
    expect(answer.status).toBe(201);
    expect(answer.body.id).toBe(id);
    expect((await http('GET', `fhir/R4/Patient/${id}`)).status).toBe(200);
  });

  it('refuses a PUT whose body id differs from the URL', async () => {
    const answer = await http('PUT', `fhir/R4/Patient/${randomUUID()}`, { body: { ...newPatient(), id: 'other' } });
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toContain('does not match the URL');
  });
});

describe('FHIR REST PATCH (JSON Patch)', () => {
  const patchHeaders = { 'content-type': 'application/json-patch+json' };

  it('applies add, replace, remove, copy, move and test', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', { body: newPatient() });
    const answer = await http<Res>('PATCH', `fhir/R4/Patient/${created.body.id}`, {
      headers: patchHeaders,
      body: [
        { op: 'test', path: '/meta/versionId', value: created.body.meta.versionId },
        { op: 'replace', path: '/gender', value: 'male' },
        { op: 'add', path: '/name/0/given/-', value: 'Byron' },
        { op: 'copy', from: '/birthDate', path: '/deceasedDateTime' },
        { op: 'move', from: '/deceasedDateTime', path: '/deceasedBoolean' },
        { op: 'remove', path: '/deceasedBoolean' },
        { op: 'add', path: '/active', value: true },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.gender).toBe('male');
    expect(answer.body.name).toEqual([
      { family: (created.body.name as { family: string }[])[0].family, given: ['Ada', 'Byron'] },
    ]);
    expect(answer.body.active).toBe(true);
    expect(answer.body.deceasedBoolean).toBeUndefined();
    expect(answer.body.meta.versionId).not.toBe(created.body.meta.versionId);
  });

  it('answers 412 on a failed test and writes nothing', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', { body: newPatient() });
    const answer = await http('PATCH', `fhir/R4/Patient/${created.body.id}`, {
      headers: patchHeaders,
      body: [
        { op: 'replace', path: '/gender', value: 'male' },
        { op: 'test', path: '/meta/versionId', value: 'not-the-version' },
      ],
    });
    expect(answer.status).toBe(412);
    expect(answer.body).toMatchObject({ resourceType: 'OperationOutcome' });
    const read = await http<Res>('GET', `fhir/R4/Patient/${created.body.id}`);
    expect(read.body.gender).toBe('female');
    expect(read.body.meta.versionId).toBe(created.body.meta.versionId);
  });

  it('refuses malformed patches and patches that break the resource', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', { body: newPatient() });
    const notArray = await http('PATCH', `fhir/R4/Patient/${created.body.id}`, {
      headers: patchHeaders,
      body: { op: 'add' },
    });
    expect(notArray.status).toBe(400);
    const badOp = await http('PATCH', `fhir/R4/Patient/${created.body.id}`, {
      headers: patchHeaders,
      body: [{ op: 'jump', path: '/x' }],
    });
    expect(badOp.status).toBe(400);
    expect(issueText(badOp.body)).toContain('unknown op');
    const missingPath = await http('PATCH', `fhir/R4/Patient/${created.body.id}`, {
      headers: patchHeaders,
      body: [{ op: 'remove', path: '/telecom/3' }],
    });
    expect(missingPath.status).toBe(400);
    const invalidResult = await http('PATCH', `fhir/R4/Patient/${created.body.id}`, {
      headers: patchHeaders,
      body: [{ op: 'replace', path: '/birthDate', value: 'yesterday' }],
    });
    expect(invalidResult.status).toBe(400);
    const changeId = await http('PATCH', `fhir/R4/Patient/${created.body.id}`, {
      headers: patchHeaders,
      body: [{ op: 'replace', path: '/id', value: 'stolen' }],
    });
    expect(changeId.status).toBe(400);
    const read = await http<Res>('GET', `fhir/R4/Patient/${created.body.id}`);
    expect(read.body.meta.versionId).toBe(created.body.meta.versionId);
  });
});

describe('FHIR REST delete and history', () => {
  it('deletes: read answers 410 Gone and history shows the deletion', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', { body: newPatient() });
    await http('PUT', `fhir/R4/Patient/${created.body.id}`, { body: { ...created.body, active: true } });
    const deleted = await http('DELETE', `fhir/R4/Patient/${created.body.id}`);
    expect(deleted.status).toBe(200);

    const read = await http('GET', `fhir/R4/Patient/${created.body.id}`);
    expect(read.status).toBe(410);
    expect(read.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'deleted' }] });

    const history = await http<{
      type: string;
      total: number;
      entry: { request: { method: string }; resource?: Res }[];
    }>('GET', `fhir/R4/Patient/${created.body.id}/_history`);
    expect(history.status).toBe(200);
    expect(history.body.type).toBe('history');
    expect(history.body.total).toBe(3);
    expect(history.body.entry.map((e) => e.request.method)).toEqual(['DELETE', 'PUT', 'POST']);
    expect(history.body.entry[0].resource).toBeUndefined();
    expect(history.body.entry[1].resource?.active).toBe(true);

    const again = await http('DELETE', `fhir/R4/Patient/${created.body.id}`);
    expect(again.status).toBe(200);
    expect((await http<{ total: number }>('GET', `fhir/R4/Patient/${created.body.id}/_history`)).body.total).toBe(3);
  });

  it('answers 404 when deleting or listing history of a resource that never existed', async () => {
    expect((await http('DELETE', `fhir/R4/Patient/${randomUUID()}`)).status).toBe(404);
    expect((await http('GET', `fhir/R4/Patient/${randomUUID()}/_history`)).status).toBe(404);
  });

  it('pages instance history newest first', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', { body: newPatient() });
    for (const gender of ['male', 'other', 'unknown']) {
      await http('PUT', `fhir/R4/Patient/${created.body.id}`, { body: { ...created.body, gender } });
    }
    const page1 = await http<{ entry: { resource: Res }[]; link: { relation: string; url: string }[] }>(
      'GET',
      `fhir/R4/Patient/${created.body.id}/_history?_count=3`,
    );
    expect(page1.body.entry.map((e) => e.resource.gender)).toEqual(['unknown', 'other', 'male']);
    const next = page1.body.link.find((l) => l.relation === 'next');
    expect(next).toBeDefined();
    const page2 = await http<{ entry: { resource: Res }[]; link: { relation: string }[] }>('GET', next!.url);
    expect(page2.body.entry.map((e) => e.resource.gender)).toEqual(['female']);
    expect(page2.body.link.some((l) => l.relation === 'next')).toBe(false);
    expect(page2.body.link.some((l) => l.relation === 'previous')).toBe(true);
  });

  it('lists type and system history', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Organization', {
      body: { resourceType: 'Organization', name: `Org ${randomUUID()}` },
    });
    const typeHistory = await http<{ entry: { resource: Res }[] }>('GET', 'fhir/R4/Organization/_history?_count=5');
    expect(typeHistory.status).toBe(200);
    expect(typeHistory.body.entry[0].resource.id).toBe(created.body.id);
    expect(typeHistory.body.entry.every((e) => e.resource.resourceType === 'Organization')).toBe(true);
    const systemHistory = await http<{ entry: { resource: Res }[] }>('GET', 'fhir/R4/_history?_count=1');
    expect(systemHistory.body.entry[0].resource.id).toBe(created.body.id);
    const badCount = await http('GET', 'fhir/R4/_history?_count=abc');
    expect(badCount.status).toBe(400);
  });
});

describe('conditional create', () => {
  it('creates once for If-None-Exist and returns the existing match afterwards', async () => {
    const value = randomUUID();
    const body = { ...newPatient(), identifier: [{ system: 'http://example.org/mrn', value }] };
    const headers = { 'if-none-exist': `identifier=http://example.org/mrn|${value}` };
    const first = await http<Res>('POST', 'fhir/R4/Patient', { body, headers });
    expect(first.status).toBe(201);
    const second = await http<Res>('POST', 'fhir/R4/Patient', { body, headers });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    const search = await http<{ total: number }>('GET', `fhir/R4/Patient?identifier=${value}&_total=accurate`);
    expect(search.body.total).toBe(1);
  });

  it('answers 412 when the criteria match several resources', async () => {
    const family = `Twin${randomUUID().slice(0, 8)}`;
    await http('POST', 'fhir/R4/Patient', { body: newPatient(family) });
    await http('POST', 'fhir/R4/Patient', { body: newPatient(family) });
    const answer = await http('POST', 'fhir/R4/Patient', {
      body: newPatient(family),
      headers: { 'if-none-exist': `family=${family}` },
    });
    expect(answer.status).toBe(412);
  });
});
