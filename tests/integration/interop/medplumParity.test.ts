import { randomUUID } from 'node:crypto';
import { MedplumClient, OperationOutcomeError } from '@medplum/core';
import { CapabilityTool, Client as FhirKitClient } from 'fhir-kit-client';
import type { Bundle, CapabilityStatement, Observation, Patient, Practitioner } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../fhirClient';
import { registerProjectOwner } from '../accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- fhir-kit-client answers untyped JSON */

/** Issue 18, Medplum API parity: conditional update/delete, system and compartment search, driven by the real clients. */

function medplumAs(token: string): MedplumClient {
  const client = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
  client.setAccessToken(token);
  return client;
}

function fhirKitAs(token: string): FhirKitClient {
  return new FhirKitClient({ baseUrl: `${baseUrl()}fhir/R4`, bearerToken: token });
}

/** The HTTP status a client library's error carries. */
async function statusOf(work: Promise<unknown>): Promise<number> {
  try {
    await work;
    return 200;
  } catch (error) {
    if (error instanceof OperationOutcomeError) {
      const code = error.outcome.issue?.[0]?.code;
      return code === 'conflict' ? 412 : code === 'not-found' ? 404 : code === 'invalid' ? 400 : 0;
    }
    return (error as { response?: { status?: number } }).response?.status ?? -1;
  }
}

describe('conditional update and delete (@medplum/core upsertResource, delete by search URL)', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let intruder: Awaited<ReturnType<typeof registerProjectOwner>>;
  let medplum: MedplumClient;
  const system = 'https://hearth.example/mrn';

  beforeAll(async () => {
    owner = await registerProjectOwner();
    intruder = await registerProjectOwner();
    medplum = medplumAs(owner.tokens.access_token);
  });

  it('creates on no match, updates the one match, and refuses several (412) without writing', async () => {
    const mrn = randomUUID();
    const identifier = `${system}|${mrn}`;
    const body: Patient = {
      resourceType: 'Patient',
      identifier: [{ system, value: mrn }],
      name: [{ family: 'Upsert' }],
    };
    const created = await medplum.upsertResource(body, { identifier });
    expect(created.id).toBeDefined();
    expect(created.meta?.versionId).toBeDefined();
    const updated = await medplum.upsertResource({ ...body, name: [{ family: 'Upserted' }] }, { identifier });
    expect(updated.id).toBe(created.id);
    expect(updated.meta?.versionId).not.toBe(created.meta?.versionId);
    expect(
      (await http<Patient>('GET', `fhir/R4/Patient/${created.id}`, { token: owner.tokens.access_token })).body.name?.[0]
        .family,
    ).toBe('Upserted');

    // An id in the body that is not the match's.
    expect(await statusOf(medplum.upsertResource({ ...body, id: randomUUID() }, { identifier }))).toBe(400);

    // Two patients with the same identifier: neither is touched.
    await medplum.createResource(body);
    expect(await statusOf(medplum.upsertResource({ ...body, name: [{ family: 'Ambiguous' }] }, { identifier }))).toBe(
      412,
    );
    const all = await medplum.searchResources('Patient', { identifier });
    expect(all.map((p) => p.name?.[0].family).sort()).toEqual(['Upsert', 'Upserted']);
  });

  it('refuses a conditional write without criteria', async () => {
    const answer = await http('PUT', 'fhir/R4/Patient', {
      token: owner.tokens.access_token,
      body: { resourceType: 'Patient' },
    });
    expect(answer.status).toBe(400);
    expect((await http('DELETE', 'fhir/R4/Patient?_count=5', { token: owner.tokens.access_token })).status).toBe(400);
  });

  it("another project's conditional writes neither see nor change this project's resources", async () => {
    const mrn = randomUUID();
    const identifier = `${system}|${mrn}`;
    const mine = await medplum.createResource<Patient>({
      resourceType: 'Patient',
      identifier: [{ system, value: mrn }],
    });
    const theirs = medplumAs(intruder.tokens.access_token);
    // Their upsert finds nothing of ours and creates their own patient.
    const made = await theirs.upsertResource<Patient>(
      { resourceType: 'Patient', identifier: [{ system, value: mrn }], name: [{ family: 'Intruder' }] },
      { identifier },
    );
    expect(made.id).not.toBe(mine.id);
    // Naming our id in the body does not overwrite ours either.
    expect(
      await statusOf(
        theirs.upsertResource<Patient>(
          { resourceType: 'Patient', id: mine.id, name: [{ family: 'Hijack' }] },
          { identifier: `${system}|none-${mrn}` },
        ),
      ),
    ).not.toBe(200);
    await theirs.delete(theirs.fhirSearchUrl('Patient', { identifier }));
    const still = await http<Patient>('GET', `fhir/R4/Patient/${mine.id}`, { token: owner.tokens.access_token });
    expect(still.status).toBe(200);
    expect(still.body.name).toBeUndefined();
  });

  it('deletes the one match, answers 200 for none, and 412 for several (deleting nothing)', async () => {
    const mrn = randomUUID();
    const identifier = `${system}|${mrn}`;
    const one = await medplum.createResource<Patient>({
      resourceType: 'Patient',
      identifier: [{ system, value: mrn }],
    });
    const outcome = await medplum.delete(medplum.fhirSearchUrl('Patient', { identifier }));
    expect(outcome).toBeDefined();
    expect((await http('GET', `fhir/R4/Patient/${one.id}`, { token: owner.tokens.access_token })).status).toBe(410);

    const none = await http<any>('DELETE', `fhir/R4/Patient?identifier=${encodeURIComponent(identifier)}`, {
      token: owner.tokens.access_token,
    });
    expect(none.status).toBe(200);
    expect(none.body.issue[0].code).toBe('not-found');

    const twin = `${system}|${randomUUID()}`;
    const [a, b] = await Promise.all(
      [0, 1].map(() =>
        medplum.createResource<Patient>({
          resourceType: 'Patient',
          identifier: [{ system, value: twin.split('|')[1] }],
        }),
      ),
    );
    expect(await statusOf(medplum.delete(medplum.fhirSearchUrl('Patient', { identifier: twin })))).toBe(412);
    for (const p of [a, b])
      expect((await http('GET', `fhir/R4/Patient/${p.id}`, { token: owner.tokens.access_token })).status).toBe(200);
  });
});

describe('system and compartment search (fhir-kit-client)', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let other: Awaited<ReturnType<typeof registerProjectOwner>>;
  let client: FhirKitClient;
  const family = `Sys${randomUUID().slice(0, 8)}`;
  let patientId: string;
  let otherPatientId: string;

  beforeAll(async () => {
    owner = await registerProjectOwner();
    other = await registerProjectOwner();
    client = fhirKitAs(owner.tokens.access_token);
    const patient = (await client.create({
      resourceType: 'Patient',
      body: { resourceType: 'Patient', name: [{ family }] },
    })) as unknown as Patient;
    patientId = patient.id as string;
    await client.create({ resourceType: 'Practitioner', body: { resourceType: 'Practitioner', name: [{ family }] } });
    const second = (await client.create({
      resourceType: 'Patient',
      body: { resourceType: 'Patient', name: [{ family: 'Else' }] },
    })) as unknown as Patient;
    for (const [subject, code] of [
      [patientId, 'mine-1'],
      [patientId, 'mine-2'],
      [second.id, 'theirs'],
    ]) {
      await client.create({
        resourceType: 'Observation',
        body: {
          resourceType: 'Observation',
          status: 'final',
          code: { text: code },
          subject: { reference: `Patient/${subject}` },
        },
      });
    }
    const foreign = await http<Patient>('POST', 'fhir/R4/Patient', {
      token: other.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family }] },
    });
    otherPatientId = foreign.body.id as string;
  });

  it('searches several types at once with _type, pages across them, and stays in the project', async () => {
    const bundle = (await client.systemSearch({
      searchParams: { _type: 'Patient,Practitioner', name: family },
    })) as unknown as Bundle<Patient | Practitioner>;
    expect(bundle.type).toBe('searchset');
    expect(bundle.entry?.map((e) => e.resource?.resourceType).sort()).toEqual(['Patient', 'Practitioner']);
    expect(bundle.entry?.some((e) => e.resource?.id === otherPatientId)).toBe(false);
    const firstPage = (await client.systemSearch({
      searchParams: { _type: 'Patient,Practitioner', name: family, _count: '1' },
    })) as unknown as Bundle;
    expect(firstPage.entry).toHaveLength(1);
    const next = firstPage.link?.find((l) => l.relation === 'next');
    expect(next?.url).toContain('_type=Patient%2CPractitioner');
    const secondPage = (await client.nextPage({ bundle: firstPage as any })) as unknown as Bundle;
    expect(secondPage.entry).toHaveLength(1);
    expect(secondPage.entry?.[0].resource?.resourceType).not.toBe(firstPage.entry?.[0].resource?.resourceType);
  });

  it('explains a system search it cannot run', async () => {
    expect(await statusOf(client.systemSearch({ searchParams: { name: family } }))).toBe(400);
    expect(await statusOf(client.systemSearch({ searchParams: { _type: 'Patient,Nonsense' } }))).toBe(404);
    // birthdate is a Patient parameter, not a Practitioner one.
    const unknown = await http<any>('GET', 'fhir/R4?_type=Patient,Practitioner&birthdate=2000-01-01', {
      token: owner.tokens.access_token,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.issue[0].details.text).toContain('Practitioner');
    expect((await http('GET', 'fhir/R4?_type=Patient', { token: null })).status).toBe(401);
  });

  it("searches a patient's compartment, and not another project's patient", async () => {
    const bundle = (await client.compartmentSearch({
      resourceType: 'Observation',
      compartment: { resourceType: 'Patient', id: patientId },
    })) as unknown as Bundle<Observation>;
    expect(bundle.entry?.map((e) => e.resource?.code?.text).sort()).toEqual(['mine-1', 'mine-2']);
    const filtered = (await client.compartmentSearch({
      resourceType: 'Observation',
      compartment: { resourceType: 'Patient', id: patientId },
      searchParams: { 'code:text': 'mine-2' },
    })) as unknown as Bundle<Observation>;
    expect(filtered.entry).toHaveLength(1);
    expect(
      await statusOf(
        client.compartmentSearch({
          resourceType: 'Observation',
          compartment: { resourceType: 'Patient', id: otherPatientId },
        }),
      ),
    ).toBe(404);
    expect(
      await statusOf(
        client.compartmentSearch({
          resourceType: 'Organization',
          compartment: { resourceType: 'Patient', id: patientId },
        }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        client.compartmentSearch({
          resourceType: 'Observation',
          compartment: { resourceType: 'Encounter', id: patientId },
        }),
      ),
    ).toBe(400);
  });

  it('declares conditional update/delete, system search and the patient compartment in the CapabilityStatement', async () => {
    const statement = (await client.capabilityStatement()) as unknown as CapabilityStatement;
    const tool = new CapabilityTool(statement as any);
    expect(tool.serverCan('search-system')).toBe(true);
    const rest = statement.rest?.[0];
    expect(rest?.compartment).toEqual(['http://hl7.org/fhir/CompartmentDefinition/patient']);
    const patient = rest?.resource?.find((r) => r.type === 'Patient');
    expect(patient).toMatchObject({
      conditionalCreate: true,
      conditionalUpdate: true,
      conditionalDelete: 'single',
      updateCreate: false,
    });
  });
});
