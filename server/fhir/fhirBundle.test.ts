import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, signInWithScope } from '../../tests/integration/accounts';

interface Entry {
  fullUrl?: string;
  resource?: { resourceType: string; id: string; [key: string]: unknown };
  request?: { method: string; url: string; ifNoneExist?: string };
  response?: { status: string; location?: string; etag?: string; outcome?: unknown };
}
interface Bundle {
  resourceType: 'Bundle';
  type: string;
  entry: Entry[];
}

const fixture = join(
  __dirname,
  '../../tests/fixtures/synthea/Clemente_Kreiger_1484a42d-0eaf-4654-9cbf-6b050a5cd73b.json',
);

/** A transaction that tries to take over, then delete, the patient with this record number. */
function takeoverBundle(mrn: string) {
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: [
      {
        resource: { resourceType: 'Patient', name: [{ family: 'Hijacked' }] },
        request: { method: 'PUT', url: `Patient?identifier=urn:mrn|${mrn}` },
      },
      { request: { method: 'DELETE', url: `Patient?identifier=urn:mrn|${mrn}` } },
    ],
  };
}

/** The victim's patient is still there, as it was: same name, same version. */
async function expectUntouched(victim: { id: string; meta: { versionId: string } }, token: string) {
  const after = await http<{ name: { family: string }[]; meta: { versionId: string } }>(
    'GET',
    `fhir/R4/Patient/${victim.id}`,
    { token },
  );
  expect(after.status).toBe(200);
  expect(after.body.name[0].family).toBe('Victim');
  expect(after.body.meta.versionId).toBe(victim.meta.versionId);
}

describe('transaction Bundles', () => {
  it('imports a Synthea patient, resolving urn:uuid references across entries', async () => {
    const source = JSON.parse(readFileSync(fixture, 'utf8')) as Bundle;
    const answer = await http<Bundle>('POST', 'fhir/R4', { body: source });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('transaction-response');
    expect(answer.body.entry).toHaveLength(source.entry.length);
    expect(answer.body.entry.every((e) => e.response?.status === '201')).toBe(true);

    const byFullUrl = new Map(source.entry.map((e, i) => [e.fullUrl as string, answer.body.entry[i].resource!]));
    const patientEntry = source.entry.find((e) => e.resource?.resourceType === 'Patient')!;
    const patient = byFullUrl.get(patientEntry.fullUrl!)!;
    expect(patient.id).not.toBe(patientEntry.resource!.id);

    const sourceObservation = source.entry.find((e) => e.resource?.resourceType === 'Observation')!;
    const observation = byFullUrl.get(sourceObservation.fullUrl!)!;
    expect(observation.subject).toEqual({ reference: `Patient/${patient.id}` });
    const encounter = byFullUrl.get((sourceObservation.resource!.encounter as { reference: string }).reference)!;
    expect(observation.encounter).toEqual({ reference: `Encounter/${encounter.id}` });
    expect((observation.meta as { compartment: unknown }).compartment).toEqual([
      { reference: `Patient/${patient.id}` },
    ]);

    // Every stored reference points at a stored resource: nothing dangles on urn:uuid.
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain('"reference":"urn:uuid:');
    const read = await http<{ id: string }>('GET', `fhir/R4/Observation/${observation.id}`);
    expect(read.status).toBe(200);
  });

  it("answers Prefer: return=minimal with each entry's response and no resource, and stores the same", async () => {
    const marker = randomUUID();
    const bundle = (family: string) => ({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:8a6f2f6e-0000-4000-8000-000000000001',
          resource: { resourceType: 'Patient', name: [{ family }], identifier: [{ value: marker }] },
          request: { method: 'POST', url: 'Patient' },
        },
        {
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: marker },
            subject: { reference: 'urn:uuid:8a6f2f6e-0000-4000-8000-000000000001' },
          },
          request: { method: 'POST', url: 'Observation' },
        },
      ],
    });
    const minimal = await http<Bundle>('POST', 'fhir/R4', {
      body: bundle('Minimal'),
      headers: { prefer: 'return=minimal' },
    });
    expect(minimal.status).toBe(200);
    expect(minimal.body.entry).toHaveLength(2);
    for (const entry of minimal.body.entry) {
      expect(entry.resource).toBeUndefined();
      expect(entry.response?.status).toBe('201');
      expect(entry.response?.location).toMatch(/\/_history\/|(Patient|Observation)\//);
      expect(entry.response?.etag).toMatch(/^W\/"/);
    }
    // Stored all the same, references resolved.
    const patientId = /Patient\/([^/]+)/.exec(minimal.body.entry[0].response!.location!)![1];
    const found = await http<Bundle>('GET', `fhir/R4/Observation?subject=Patient/${patientId}`);
    expect(found.body.entry.map((e) => (e.resource!.code as { text: string }).text)).toEqual([marker]);
    // Without the header, the answer carries the resources.
    const full = await http<Bundle>('POST', 'fhir/R4', { body: bundle('Full') });
    expect(full.body.entry.map((e) => e.resource?.resourceType)).toEqual(['Patient', 'Observation']);
    // A failing transaction still answers its OperationOutcome under return=minimal.
    const invalid = bundle('Invalid');
    (invalid.entry[1].resource as { status: string }).status = 'not-a-status';
    const refused = await http('POST', 'fhir/R4', { body: invalid, headers: { prefer: 'return=minimal' } });
    expect(refused.status).toBe(400);
    expect(issueExpressions(refused.body)[0]).toMatch(/^Bundle\.entry\[1\]/);
  });

  it('is all or nothing: one invalid entry rolls back every other', async () => {
    const marker = randomUUID();
    const bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:p1',
          resource: { resourceType: 'Patient', identifier: [{ value: marker }] },
          request: { method: 'POST', url: 'Patient' },
        },
        {
          resource: {
            resourceType: 'Observation',
            identifier: [{ value: marker }],
            status: 'final',
            code: { text: 'x' },
            subject: { reference: 'urn:uuid:p1' },
          },
          request: { method: 'POST', url: 'Observation' },
        },
        {
          resource: { resourceType: 'Observation', identifier: [{ value: marker }], code: { text: 'no status' } },
          request: { method: 'POST', url: 'Observation' },
        },
      ],
    };
    const answer = await http('POST', 'fhir/R4', { body: bundle });
    expect(answer.status).toBe(400);
    expect(issueExpressions(answer.body)).toContain('Bundle.entry[2].resource.status');
    for (const type of ['Patient', 'Observation']) {
      const search = await http<{ total: number }>('GET', `fhir/R4/${type}?identifier=${marker}&_total=accurate`);
      expect(search.body.total).toBe(0);
    }
  });

  it('is all or nothing in a large Bundle too, whose processing gives the event loop back between entries', async () => {
    const marker = randomUUID();
    // Other requests run between this Bundle's entries (every 32); the invalid last entry must still
    // take all 151 others back.
    const observations = Array.from({ length: 150 }, (_, i) => ({
      resource: {
        resourceType: 'Observation',
        identifier: [{ value: marker }],
        status: 'final',
        code: { text: `reading ${i}` },
        subject: { reference: 'urn:uuid:p1' },
      },
      request: { method: 'POST', url: 'Observation' },
    }));
    const entry = [
      {
        fullUrl: 'urn:uuid:p1',
        resource: { resourceType: 'Patient', identifier: [{ value: marker }] },
        request: { method: 'POST', url: 'Patient' },
      },
      ...observations,
      {
        resource: { resourceType: 'Observation', identifier: [{ value: marker }], code: { text: 'no status' } },
        request: { method: 'POST', url: 'Observation' },
      },
    ];
    const refused = await http('POST', 'fhir/R4', { body: { resourceType: 'Bundle', type: 'transaction', entry } });
    expect(refused.status).toBe(400);
    expect(issueExpressions(refused.body)).toContain('Bundle.entry[151].resource.status');
    for (const type of ['Patient', 'Observation']) {
      const search = await http<{ total: number }>('GET', `fhir/R4/${type}?identifier=${marker}&_total=accurate`);
      expect(search.body.total).toBe(0);
    }

    // Without the bad entry, all 151 are stored, searchable, and point at the patient.
    const stored = await http<Bundle>('POST', 'fhir/R4', {
      body: { resourceType: 'Bundle', type: 'transaction', entry: entry.slice(0, -1) },
    });
    expect(stored.status).toBe(200);
    const patientId = stored.body.entry[0].resource!.id;
    const search = await http<{ total: number }>(
      'GET',
      `fhir/R4/Observation?identifier=${marker}&subject=Patient/${patientId}&_total=accurate`,
    );
    expect(search.body.total).toBe(150);
  });

  it('supports conditional create inside a transaction and points references at the match', async () => {
    const value = randomUUID();
    const existing = await http<{ id: string }>('POST', 'fhir/R4/Organization', {
      body: { resourceType: 'Organization', name: 'Existing', identifier: [{ system: 'urn:test', value }] },
    });
    const bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:org',
          resource: { resourceType: 'Organization', name: 'Duplicate', identifier: [{ system: 'urn:test', value }] },
          request: { method: 'POST', url: 'Organization', ifNoneExist: `identifier=urn:test|${value}` },
        },
        {
          resource: { resourceType: 'Patient', managingOrganization: { reference: 'urn:uuid:org' } },
          request: { method: 'POST', url: 'Patient' },
        },
      ],
    };
    const answer = await http<Bundle>('POST', 'fhir/R4', { body: bundle });
    expect(answer.status).toBe(200);
    expect(answer.body.entry[0].response?.status).toBe('200');
    expect(answer.body.entry[0].resource?.id).toBe(existing.body.id);
    expect(answer.body.entry[1].resource?.managingOrganization).toEqual({
      reference: `Organization/${existing.body.id}`,
    });
  });

  it('supports conditional update inside a transaction: creates, then updates the match, and references follow it', async () => {
    const mrn = randomUUID();
    const bundle = (family: string) => ({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:patient',
          resource: { resourceType: 'Patient', name: [{ family }], identifier: [{ system: 'urn:mrn', value: mrn }] },
          request: { method: 'PUT', url: `Patient?identifier=urn:mrn|${mrn}` },
        },
        {
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'Weight' },
            subject: { reference: 'urn:uuid:patient' },
          },
          request: { method: 'POST', url: 'Observation' },
        },
      ],
    });
    // As a project's own admin (update-as-create by a chosen id is for super admins only).
    const { tokens } = await registerProjectOwner('Conditional Clinic');
    const token = tokens.access_token;
    const first = await http<Bundle>('POST', 'fhir/R4', { body: bundle('First'), token });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.entry[0].response?.status).toBe('201');
    const patientId = first.body.entry[0].resource!.id;
    expect(first.body.entry[1].resource?.subject).toEqual({ reference: `Patient/${patientId}` });

    // The same Bundle again: the patient it names now exists, so it is updated, not duplicated.
    const again = await http<Bundle>('POST', 'fhir/R4', { body: bundle('Second'), token });
    expect(again.status).toBe(200);
    expect(again.body.entry[0].response?.status).toBe('200');
    expect(again.body.entry[0].resource!.id).toBe(patientId);
    expect(again.body.entry[1].resource?.subject).toEqual({ reference: `Patient/${patientId}` });
    const found = await http<{ total: number; entry: { resource: { name: { family: string }[] } }[] }>(
      'GET',
      `fhir/R4/Patient?identifier=urn:mrn|${mrn}&_total=accurate`,
      { token },
    );
    expect(found.body.total).toBe(1);
    expect(found.body.entry[0].resource.name[0].family).toBe('Second');
  });

  it('lets neither a patient nor a narrowly scoped app reach another patient through conditional entries', async () => {
    const mrn = randomUUID();
    const owner = await registerProjectOwner('Conditional Portal Clinic');
    const victim = await http<{ id: string; meta: { versionId: string } }>('POST', 'fhir/R4/Patient', {
      token: owner.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Victim' }], identifier: [{ system: 'urn:mrn', value: mrn }] },
    });
    const email = `portal-${randomUUID()}@test.example`;
    const invited = await http('POST', `admin/projects/${owner.projectId}/invite`, {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'Patient',
        firstName: 'Pat',
        lastName: 'Portal',
        email,
        password: 'portal password 1',
        sendEmail: false,
      },
    });
    expect(invited.status).toBe(200);
    const patientToken = (await signInWithScope(email, 'portal password 1', 'openid')).access_token as string;
    const appToken = (await signInWithScope(owner.email, owner.password, 'openid user/Observation.read'))
      .access_token as string;
    const attack = takeoverBundle(mrn);
    const byPatient = await http('POST', 'fhir/R4', { token: patientToken, body: attack });
    const byApp = await http('POST', 'fhir/R4', { token: appToken, body: attack });
    // The patient's policy reads only their own record (no match) and writes no Patient at all.
    expect(byPatient.status).toBe(403);
    expect(issueText(byPatient.body)).toBe('Forbidden: your access policy does not allow create of Patient');
    // The app's scopes do not even let it search Patients for the match.
    expect(byApp.status).toBe(403);
    expect(issueText(byApp.body)).toBe("Forbidden: the token's scopes do not allow search of Patient");
    await expectUntouched(victim.body, owner.tokens.access_token);
  });

  it('refuses two conditional entries that would create the same resource, naming the second', async () => {
    const mrn = randomUUID();
    const entry = (url: string, method = 'PUT', ifNoneExist?: string) => ({
      resource: { resourceType: 'Patient', identifier: [{ system: 'urn:mrn', value: mrn }] },
      request: { method, url, ...(ifNoneExist ? { ifNoneExist } : {}) },
    });
    const twice = await http('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          entry(`Patient?identifier=urn:mrn|${mrn}&active=true`),
          entry('Patient', 'POST', `active=true&identifier=urn:mrn|${mrn}`),
        ],
      },
    });
    expect(twice.status).toBe(400);
    expect(issueExpressions(twice.body)).toEqual(['Bundle.entry[1].request']);
    const found = await http<{ total: number }>('GET', `fhir/R4/Patient?identifier=urn:mrn|${mrn}&_total=accurate`);
    expect(found.body.total).toBe(0);
  });

  it("never matches another project's resource: a conditional update there creates in the caller's own project", async () => {
    const mrn = randomUUID();
    const victim = await registerProjectOwner('Victim Clinic');
    const attacker = await registerProjectOwner('Attacker Clinic');
    const theirs = await http<{ id: string; meta: { versionId: string } }>('POST', 'fhir/R4/Patient', {
      token: victim.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Victim' }], identifier: [{ system: 'urn:mrn', value: mrn }] },
    });
    const answer = await http<Bundle>('POST', 'fhir/R4', {
      token: attacker.tokens.access_token,
      body: takeoverBundle(mrn),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.entry[0].resource!.id).not.toBe(theirs.body.id);
    await expectUntouched(theirs.body, victim.tokens.access_token);
  });

  it('refuses a conditional update matching several resources, naming the entry, and writes nothing', async () => {
    const mrn = randomUUID();
    for (const family of ['Twin', 'Twin']) {
      await http('POST', 'fhir/R4/Patient', {
        body: { resourceType: 'Patient', name: [{ family }], identifier: [{ system: 'urn:mrn', value: mrn }] },
      });
    }
    const marker = randomUUID();
    const answer = await http('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            resource: { resourceType: 'Organization', name: marker },
            request: { method: 'POST', url: 'Organization' },
          },
          {
            resource: { resourceType: 'Patient', name: [{ family: 'Merged' }] },
            request: { method: 'PUT', url: `Patient?identifier=urn:mrn|${mrn}` },
          },
        ],
      },
    });
    expect(answer.status).toBe(412);
    expect(issueExpressions(answer.body)).toEqual(['Bundle.entry[1]']);
    const organizations = await http<{ total: number }>('GET', `fhir/R4/Organization?name=${marker}&_total=accurate`);
    expect(organizations.body.total).toBe(0);
  });

  it('supports conditional delete inside a transaction: the one match is deleted, no match deletes nothing', async () => {
    const mrn = randomUUID();
    const patient = await http<{ id: string }>('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', identifier: [{ system: 'urn:mrn', value: mrn }] },
    });
    const answer = await http<Bundle>('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          { request: { method: 'DELETE', url: `Patient?identifier=urn:mrn|${mrn}` } },
          { request: { method: 'DELETE', url: `Patient?identifier=urn:mrn|${randomUUID()}` } },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.entry.map((entry) => entry.response?.status)).toEqual(['200', '200']);
    expect((await http('GET', `fhir/R4/Patient/${patient.body.id}`)).status).toBe(410);
  });

  it('runs PUT, PATCH, DELETE and GET entries', async () => {
    const created = await http<{ id: string }>('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', gender: 'female' },
    });
    const doomed = await http<{ id: string }>('POST', 'fhir/R4/Patient', { body: { resourceType: 'Patient' } });
    const patch = Buffer.from(JSON.stringify([{ op: 'replace', path: '/gender', value: 'male' }])).toString('base64');
    const answer = await http<Bundle>('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          { request: { method: 'GET', url: `Patient/${created.body.id}` } },
          {
            resource: { resourceType: 'Binary', contentType: 'application/json-patch+json', data: patch },
            request: { method: 'PATCH', url: `Patient/${created.body.id}` },
          },
          { request: { method: 'DELETE', url: `Patient/${doomed.body.id}` } },
        ],
      },
    });
    expect(answer.status).toBe(200);
    // GET runs last: it sees the patched resource.
    expect(answer.body.entry[0].resource?.gender).toBe('male');
    expect(answer.body.entry[1].response?.status).toBe('200');
    expect((await http('GET', `fhir/R4/Patient/${doomed.body.id}`)).status).toBe(410);
  });

  it('gives a PATCH value naming a resource created in the same transaction its id', async () => {
    const task = await http<{ id: string }>('POST', 'fhir/R4/Task', {
      body: { resourceType: 'Task', status: 'ready', intent: 'order' },
    });
    const fullUrl = `urn:uuid:${randomUUID()}`;
    const patch = [
      { op: 'replace', path: '/status', value: 'completed' },
      { op: 'add', path: '/output', value: [{ type: { text: 'Response' }, valueReference: { reference: fullUrl } }] },
    ];
    const answer = await http<Bundle>('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            fullUrl,
            resource: { resourceType: 'QuestionnaireResponse', status: 'completed' },
            request: { method: 'POST', url: 'QuestionnaireResponse' },
          },
          {
            resource: {
              resourceType: 'Binary',
              contentType: 'application/json-patch+json',
              data: Buffer.from(JSON.stringify(patch)).toString('base64'),
            },
            request: { method: 'PATCH', url: `Task/${task.body.id}` },
          },
        ],
      },
    });
    expect(answer.status).toBe(200);
    const responseId = answer.body.entry[0].resource?.id;
    const stored = await http<{ output?: { valueReference?: { reference?: string } }[] }>(
      'GET',
      `fhir/R4/Task/${task.body.id}`,
    );
    expect(stored.body.output?.[0].valueReference?.reference).toBe(`QuestionnaireResponse/${responseId}`);
  });

  it('refuses Bundles that are not batch or transaction, and malformed entries', async () => {
    const collection = await http('POST', 'fhir/R4', {
      body: { resourceType: 'Bundle', type: 'collection', entry: [] },
    });
    expect(collection.status).toBe(400);
    const noMethod = await http('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [{ resource: { resourceType: 'Patient' }, request: { url: 'Patient' } }],
      },
    });
    expect(noMethod.status).toBe(400);
    expect(issueExpressions(noMethod.body)).toContain('Bundle.entry[0].request.method');
    const notBundle = await http('POST', 'fhir/R4', { body: { resourceType: 'Patient' } });
    expect(notBundle.status).toBe(400);
  });
});

describe('batch Bundles', () => {
  it('processes each entry on its own and reports failures per entry', async () => {
    const marker = randomUUID();
    const answer = await http<Bundle>('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          {
            resource: { resourceType: 'Patient', identifier: [{ value: marker }] },
            request: { method: 'POST', url: 'Patient' },
          },
          { resource: { resourceType: 'Patient', birthDate: 'never' }, request: { method: 'POST', url: 'Patient' } },
          { request: { method: 'GET', url: `Patient/${randomUUID()}` } },
          // Conditional entries resolve on their own in a batch: this one finds the first entry's patient.
          {
            resource: { resourceType: 'Patient', identifier: [{ value: marker }], gender: 'other' },
            request: { method: 'PUT', url: `Patient?identifier=${marker}` },
          },
          { request: { method: 'DELETE', url: 'Patient?_count=5' } },
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('batch-response');
    expect(answer.body.entry.map((e) => e.response?.status)).toEqual(['201', '400', '404', '200', '400']);
    expect(answer.body.entry[3].resource?.id).toBe(answer.body.entry[0].resource?.id);
    expect(answer.body.entry[1].response?.outcome).toMatchObject({ resourceType: 'OperationOutcome' });
    const search = await http<{ total: number }>('GET', `fhir/R4/Patient?identifier=${marker}&_total=accurate`);
    expect(search.body.total).toBe(1);
  });
});
