import type { Bundle, Observation, Patient } from '@medplum/fhirtypes';
import { HttpError } from 'react-admin';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FhirClient } from '../../../data-provider/client';
import {
  createFhirAuthProvider,
  createFhirDataProvider,
  type FhirDataProvider,
  outcomeOfHttpError,
} from '../../../data-provider/react-admin';
import { ownerClient } from './clientSession';

async function httpError(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

/** react-admin's providers over our client, against the real server. */
describe('react-admin dataProvider against the server', () => {
  let client: FhirClient;
  let provider: FhirDataProvider;
  const family = `Ra${Date.now().toString(36)}`;
  const ids: string[] = [];

  beforeAll(async () => {
    ({ client } = await ownerClient());
    provider = createFhirDataProvider(client);
    for (const [given, birthDate] of [
      ['Ada', '1980-01-01'],
      ['Bea', '1990-06-15'],
      ['Cy', '2000-12-31'],
    ]) {
      const created = await provider.create('Patient', {
        data: { name: [{ given: [given], family }], birthDate, gender: 'female' },
      });
      ids.push(String(created.data.id));
    }
  });

  it('getList: filters, sort by a record field, pages and the accurate total', async () => {
    const page1 = await provider.getList('Patient', {
      pagination: { page: 1, perPage: 2 },
      sort: { field: 'birthDate', order: 'DESC' },
      filter: { family },
    });
    expect(page1.total).toBe(3);
    expect(page1.data.map((record) => record.name[0].given[0])).toEqual(['Cy', 'Bea']);
    expect(page1.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
    const page2 = await provider.getList('Patient', {
      pagination: { page: 2, perPage: 2 },
      sort: { field: 'birthDate', order: 'DESC' },
      filter: { family },
    });
    expect(page2.data.map((record) => record.name[0].given[0])).toEqual(['Ada']);
    expect(page2.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });

    const ranged = await provider.getList('Patient', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'lastUpdated', order: 'ASC' },
      filter: {
        family,
        birthdate: [
          { operator: 'ge', value: '1985-01-01' },
          { operator: 'lt', value: '2000-01-01' },
        ],
        'given:exact': ['Bea', 'Cy'],
      },
    });
    expect(ranged.data.map((record) => record.id)).toEqual([ids[1]]);
    expect(ranged.data[0].lastUpdated).toBe(ranged.data[0].meta.lastUpdated);

    const q = await provider.getList('Patient', { pagination: { page: 1, perPage: 10 }, filter: { q: family } });
    expect(q.total).toBe(3);
  });

  it('getList with an estimated total, and without a total', async () => {
    const estimated = await provider.getList('Patient', {
      pagination: { page: 1, perPage: 1 },
      filter: { family },
      meta: { total: 'estimate' },
    });
    // A few matches: the server counts them exactly (up to 1,000), so the list does not say "about".
    expect(estimated.total).toBe(ids.length);
    expect(estimated.meta).toMatchObject({ total: 'estimate', totalIsEstimate: false });
    const uncounted = await provider.getList('Patient', {
      pagination: { page: 1, perPage: 1 },
      filter: { family },
      meta: { total: 'none' },
    });
    expect(uncounted.total).toBeUndefined();
    expect(uncounted.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
  });

  it("an unknown sort field is the server's clear refusal, never another order", async () => {
    const error = await httpError(
      provider.getList('Patient', {
        pagination: { page: 1, perPage: 5 },
        sort: { field: 'favouriteColour', order: 'ASC' },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('Unknown search parameter "favouriteColour"');
    expect(outcomeOfHttpError(error)?.issue[0].code).toBe('invalid');
  });

  it('getOne, getMany (one _id search) and getManyReference', async () => {
    expect((await provider.getOne('Patient', { id: ids[0] })).data.name[0].given).toEqual(['Ada']);
    const many = await provider.getMany('Patient', { ids: [ids[2], ids[0]] });
    expect(many.data.map((record) => record.id).sort()).toEqual([ids[0], ids[2]].sort());
    for (const value of [1, 2]) {
      await client.createResource<Observation>({
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'Pulse' },
        subject: { reference: `Patient/${ids[0]}` },
        valueQuantity: { value, unit: '/min' },
      });
    }
    const references = await provider.getManyReference('Observation', {
      target: 'subject',
      id: `Patient/${ids[0]}`,
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'lastUpdated', order: 'ASC' },
      filter: {},
    });
    expect(references.total).toBe(2);
    expect(references.data.map((record) => record.valueQuantity.value)).toEqual([1, 2]);
    const missing = await httpError(provider.getOne('Patient', { id: 'nobody-here' }));
    expect(missing.status).toBe(404);
  });

  it('update sends If-Match: a stale edit is a 412 HttpError with the outcome and changes nothing', async () => {
    const loaded = (await provider.getOne('Patient', { id: ids[1] })).data;
    const saved = await provider.update('Patient', {
      id: ids[1],
      data: { ...loaded, gender: 'other' },
      previousData: loaded,
    });
    expect(saved.data.gender).toBe('other');
    expect(saved.data.meta.versionId).not.toBe(loaded.meta.versionId);
    const stale = await httpError(
      provider.update('Patient', { id: ids[1], data: { ...loaded, gender: 'male' }, previousData: loaded }),
    );
    expect(stale.status).toBe(412);
    expect(outcomeOfHttpError(stale)?.issue[0].code).toBe('conflict');
    expect((await provider.getOne('Patient', { id: ids[1] })).data.gender).toBe('other');
  });

  it('updateMany changes all in one transaction; deleteMany deletes all or nothing', async () => {
    const extra: string[] = [];
    for (const given of ['Dee', 'Eve']) {
      extra.push(String((await provider.create('Patient', { data: { name: [{ given: [given], family }] } })).data.id));
    }
    expect((await provider.updateMany('Patient', { ids: extra, data: { active: false } })).data).toEqual(extra);
    const changed = await provider.getMany('Patient', { ids: extra });
    expect(changed.data.map((record) => record.active)).toEqual([false, false]);

    const missing = await httpError(
      provider.updateMany('Patient', { ids: [extra[0], 'nobody'], data: { active: true } }),
    );
    expect(missing.message).toBe('Not found: Patient/nobody');
    expect((await provider.getOne('Patient', { id: extra[0] })).data.active).toBe(false);

    // A type that cannot be deleted makes the whole transaction fail: nothing is deleted.
    const refused = await httpError(provider.deleteMany('Patient', { ids: [extra[0], 'bad id with spaces'] }));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await provider.getOne('Patient', { id: extra[0] })).data.id).toBe(extra[0]);

    expect((await provider.deleteMany('Patient', { ids: extra })).data).toEqual(extra);
    expect((await httpError(provider.getOne('Patient', { id: extra[1] }))).status).toBe(410);
    const deleted = await provider.delete('Patient', { id: ids[2], previousData: { id: ids[2] } });
    expect(deleted.data.id).toBe(ids[2]);
  });

  it('custom methods: patch guarded by versionId, history, vread, searchBundle, graphql, expandValueSet', async () => {
    const loaded = (await provider.getOne('Patient', { id: ids[0] })).data as Patient & { id: string };
    const patched = await provider.patch('Patient', {
      id: ids[0],
      versionId: loaded.meta?.versionId,
      operations: [{ op: 'add', path: '/active', value: true }],
    });
    expect(patched.data.active).toBe(true);
    const stale = await httpError(
      provider.patch('Patient', {
        id: ids[0],
        versionId: loaded.meta?.versionId,
        operations: [{ op: 'replace', path: '/active', value: false }],
      }),
    );
    expect(stale.status).toBeGreaterThanOrEqual(400);
    expect((await provider.getOne('Patient', { id: ids[0] })).data.active).toBe(true);

    const history = await provider.history('Patient', { id: ids[0] });
    expect(history.data.entry?.length).toBe(2);
    const first = await provider.vread('Patient', { id: ids[0], versionId: loaded.meta?.versionId as string });
    expect(first.data.active).toBeUndefined();

    const bundle: Bundle = (
      await provider.searchBundle('Observation', {
        query: { subject: `Patient/${ids[0]}`, _include: 'Observation:subject' },
      })
    ).data;
    expect(bundle.entry?.filter((entry) => entry.search?.mode === 'include')).toHaveLength(1);

    const graph = await provider.graphql<{ Patient: { id: string } }>({
      query: 'query One($id: ID!) { Patient(id: $id) { id } }',
      variables: { id: ids[0] },
    });
    expect(graph.data.data?.Patient.id).toBe(ids[0]);

    const expanded = await provider.expandValueSet({ url: 'http://hl7.org/fhir/ValueSet/administrative-gender' });
    expect(expanded.data.expansion?.contains?.map((coding) => coding.code).sort()).toEqual([
      'female',
      'male',
      'other',
      'unknown',
    ]);
  });

  it('a write refused by validation is an HttpError whose outcome names the field', async () => {
    const error = await httpError(provider.create('Patient', { data: { gender: 'sometimes' } }));
    expect(error.status).toBe(400);
    expect(outcomeOfHttpError(error)?.issue.some((issue) => (issue.expression ?? []).join().includes('gender'))).toBe(
      true,
    );
  });
});

describe('react-admin authProvider against the server', () => {
  it('login, identity, permissions, canAccess, logout', async () => {
    const { owner } = await ownerClient();
    const { client } = await ownerClient();
    client.clear();
    const auth = createFhirAuthProvider(client);
    await expect(auth.checkAuth({})).rejects.toMatchObject({ redirectTo: '/signin' });
    await auth.login({ email: owner.email, password: owner.password });
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    const identity = await auth.getIdentity!();
    expect(identity.id).toMatch(/^Practitioner\//);
    expect(identity.fullName).toContain('Test');
    expect(await auth.getPermissions!({})).toMatchObject({ superAdmin: false, projectAdmin: true });
    expect(await auth.canAccess!({ resource: 'Patient', action: 'edit' })).toBe(true);
    expect(await auth.canAccess!({ resource: 'DomainConfiguration', action: 'create' })).toBe(false);
    const token = client.getAccessToken();
    expect(await auth.logout({})).toBe('/signin');
    expect(client.getActiveLogin()).toBeUndefined();
    const refused = await fetch(`${client.getFhirBaseUrl()}Patient`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    await expect(auth.login({ email: owner.email, password: 'wrong password' })).rejects.toThrow();
    expect(client.getActiveLogin()).toBeUndefined();
  });
});
