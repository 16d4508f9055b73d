import type { Bundle, OperationOutcome } from '@medplum/fhirtypes';
import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { FakeFetch, jsonResponse } from '../client/fakeFetch';
import { FhirClient } from '../client/fhirClient';
import { createFhirDataProvider, type FhirDataProviderOptions } from './fhirDataProvider';
import { outcomeOfHttpError } from './httpErrors';

const server = 'http://ehr.test/';
const fhir = `${server}fhir/R4/`;

function setup(options: FhirDataProviderOptions = {}) {
  const fake = new FakeFetch();
  const client = new FhirClient({ baseUrl: server, fetch: fake.fetch, autoBatchTime: 0 });
  return { fake, client, provider: createFhirDataProvider(client, options) };
}

function searchset(resources: object[], extra: Partial<Bundle> = {}): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: resources.map((resource) => ({ resource, search: { mode: 'match' } })) as Bundle['entry'],
    ...extra,
  };
}

function query(url: string): [string, string][] {
  return [...new URL(url).searchParams.entries()];
}

function body(call: { body: unknown }): Record<string, unknown> {
  return JSON.parse(call.body as string) as Record<string, unknown>;
}

const conflict: OperationOutcome = {
  resourceType: 'OperationOutcome',
  issue: [
    { severity: 'error', code: 'conflict', details: { text: 'Version conflict' }, expression: ['meta.versionId'] },
  ],
};

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

describe('getList', () => {
  it('maps pagination, sort and filters to one FHIR search and answers records with the total', async () => {
    const { fake, provider } = setup();
    fake.on('GET', /Patient\?/, () =>
      jsonResponse(
        searchset([{ resourceType: 'Patient', id: 'p1', meta: { lastUpdated: '2024-01-01T00:00:00Z' } }], {
          total: 41,
          link: [{ relation: 'next', url: `${fhir}Patient?_offset=40` }],
        }),
      ),
    );
    const result = await provider.getList('Patient', {
      pagination: { page: 3, perPage: 20 },
      sort: { field: 'birthDate', order: 'DESC' },
      filter: { gender: 'female', 'name:contains': 'ev', active: true, q: '' },
    });
    expect(query(fake.calls[0].url)).toEqual([
      ['gender', 'female'],
      ['name:contains', 'ev'],
      ['active', 'true'],
      ['_sort', '-birthdate'],
      ['_count', '20'],
      ['_offset', '40'],
      ['_total', 'accurate'],
    ]);
    expect(result.data).toEqual([
      {
        resourceType: 'Patient',
        id: 'p1',
        meta: { lastUpdated: '2024-01-01T00:00:00Z' },
        lastUpdated: '2024-01-01T00:00:00Z',
      },
    ]);
    expect(result.total).toBe(41);
    expect(result.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    expect(result.meta).toMatchObject({ total: 'accurate', totalIsEstimate: false });
  });

  it('turns search-model filters, lists and q into FHIR parameters', async () => {
    const { fake, provider } = setup();
    fake.on('GET', /\?/, () => jsonResponse(searchset([])));
    await provider.getList('Patient', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'lastUpdated', order: 'ASC' },
      filter: {
        birthdate: [
          { operator: 'ge', value: '1990-01-01' },
          { operator: 'lt', value: '2000-01-01' },
        ],
        status: ['active', 'on,hold'],
        subject: { operator: 'type', value: '123', targetType: 'Patient' },
        q: 'eve',
      },
    });
    expect(query(fake.calls[0].url).slice(0, 6)).toEqual([
      ['birthdate', 'ge1990-01-01'],
      ['birthdate', 'lt2000-01-01'],
      ['status', 'active,on\\,hold'],
      ['subject:Patient', '123'],
      ['name', 'eve'],
      ['_sort', '_lastUpdated'],
    ]);
    await provider.getList('Observation', { pagination: { page: 1, perPage: 10 }, filter: { q: 'glucose' } });
    expect(query(fake.calls[1].url)[0]).toEqual(['_content', 'glucose']);
  });

  it('refuses sorts no search parameter stands for, and bad operators, before asking the server', async () => {
    const { fake, provider } = setup();
    const sort = await httpError(
      provider.getList('Patient', {
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'name[0].family', order: 'ASC' },
      }),
    );
    expect(sort.status).toBe(400);
    expect(sort.message).toBe(
      'Cannot sort Patient by "name[0].family": no search parameter stands for that field (_sort)',
    );
    expect(outcomeOfHttpError(sort)?.issue[0].expression).toEqual(['_sort']);
    const operator = await httpError(
      provider.getList('Patient', {
        pagination: { page: 1, perPage: 10 },
        filter: { birthdate: { operator: 'soon', value: 1 } },
      }),
    );
    expect(operator.message).toContain('Unknown search operator "soon"');
    expect(fake.calls).toHaveLength(0);
  });

  it('uses the configured sort parameters per type', async () => {
    const { fake, provider } = setup({ sortParameters: { Observation: { effectiveDateTime: 'date' } } });
    fake.on('GET', /\?/, () => jsonResponse(searchset([])));
    await provider.getList('Observation', {
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'effectiveDateTime', order: 'DESC' },
    });
    expect(new URL(fake.calls[0].url).searchParams.get('_sort')).toBe('-date');
  });

  it('passes an estimated total with its flag, and pages by links when there is no total', async () => {
    const { fake, provider } = setup();
    fake.once(
      'GET',
      /_total=estimate/,
      jsonResponse(searchset([{ resourceType: 'Patient', id: 'a' }], { total: 1500 })),
    );
    const estimated = await provider.getList('Patient', {
      pagination: { page: 1, perPage: 1 },
      meta: { total: 'estimate' },
    });
    expect(estimated.total).toBe(1500);
    expect(estimated.meta).toMatchObject({ total: 'estimate', totalIsEstimate: true });

    // Up to 1,000 the server counted the matches: not an estimate.
    fake.once('GET', /_total=estimate/, jsonResponse(searchset([{ resourceType: 'Patient', id: 'a' }], { total: 40 })));
    const counted = await provider.getList('Patient', {
      pagination: { page: 1, perPage: 1 },
      meta: { total: 'estimate' },
    });
    expect(counted.meta).toMatchObject({ total: 'estimate', totalIsEstimate: false });
    expect(estimated.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false });

    fake.once(
      'GET',
      /_total=none/,
      jsonResponse(searchset([{ resourceType: 'Patient', id: 'b' }], { link: [{ relation: 'next', url: 'x' }] })),
    );
    const uncounted = await provider.getList('Patient', {
      pagination: { page: 1, perPage: 1 },
      meta: { total: 'none' },
    });
    expect(uncounted.total).toBeUndefined();
    expect(uncounted.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
    expect(uncounted.meta).toMatchObject({ totalIsEstimate: false });
  });

  it('leaves _include matches out of data but keeps them in meta.bundle', async () => {
    const { fake, provider } = setup();
    fake.on('GET', /_include=Observation%3Asubject/, () =>
      jsonResponse({
        resourceType: 'Bundle',
        type: 'searchset',
        entry: [
          { resource: { resourceType: 'Observation', id: 'o1' }, search: { mode: 'match' } },
          { resource: { resourceType: 'Patient', id: 'p1' }, search: { mode: 'include' } },
        ],
      }),
    );
    const result = await provider.getList('Observation', {
      pagination: { page: 1, perPage: 5 },
      meta: { include: ['Observation:subject'] },
    });
    expect(result.data.map((r) => r.id)).toEqual(['o1']);
    expect((result.meta.bundle as Bundle).entry).toHaveLength(2);
  });

  it('turns server errors into HttpErrors carrying the OperationOutcome, and passes aborts through', async () => {
    const { fake, provider } = setup();
    const unknown: OperationOutcome = {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'invalid',
          details: { text: 'Unknown search parameter "nothing" for Patient' },
          expression: ['nothing'],
        },
      ],
    };
    fake.once('GET', /nothing=1/, jsonResponse(unknown, 400));
    const error = await httpError(
      provider.getList('Patient', { pagination: { page: 1, perPage: 5 }, filter: { nothing: 1 } }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toBe('Unknown search parameter "nothing" for Patient (nothing)');
    expect(error.body).toEqual({ outcome: unknown });

    const controller = new AbortController();
    fake.on('GET', /Patient\/slow$/, () => new Promise<Response>(() => undefined));
    const pending = provider.getOne('Patient', { id: 'slow', signal: controller.signal });
    const reason = new DOMException('stopped', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});

describe('getOne, getMany, getManyReference', () => {
  it('getOne reads by id', async () => {
    const { fake, provider } = setup();
    fake.on('GET', `${fhir}Patient/p1`, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    expect((await provider.getOne('Patient', { id: 'p1' })).data).toMatchObject({ id: 'p1', resourceType: 'Patient' });
  });

  it('getMany is one _id search, not one read per id', async () => {
    const { fake, provider } = setup();
    fake.on('GET', /Patient\?_id=/, () =>
      jsonResponse(
        searchset([
          { resourceType: 'Patient', id: 'a' },
          { resourceType: 'Patient', id: 'b' },
        ]),
      ),
    );
    const result = await provider.getMany('Patient', { ids: ['a', 'b', 'a'] });
    expect(fake.calls).toHaveLength(1);
    expect(query(fake.calls[0].url)).toEqual([
      ['_id', 'a,b'],
      ['_count', '2'],
    ]);
    expect(result.data.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('getMany answers in the order asked for and leaves out ids not found', async () => {
    const { fake, provider } = setup();
    fake.on('GET', /Patient\?_id=/, () =>
      jsonResponse(
        searchset([
          { resourceType: 'Patient', id: 'a' },
          { resourceType: 'Patient', id: 'c' },
        ]),
      ),
    );
    const result = await provider.getMany('Patient', { ids: ['c', 'gone', 'a'] });
    expect(result.data.map((r) => r.id)).toEqual(['c', 'a']);
  });

  it('getMany splits long id lists into groups of 100', async () => {
    const { fake, provider } = setup();
    fake.on('GET', /Patient\?_id=/, () => jsonResponse(searchset([])));
    await provider.getMany('Patient', { ids: Array.from({ length: 250 }, (_, i) => `id${i}`) });
    expect(fake.calls.map((call) => new URL(call.url).searchParams.get('_count'))).toEqual(['100', '100', '50']);
  });

  it('getManyReference searches by the target parameter, with list paging and sort', async () => {
    const { fake, provider } = setup();
    fake.on('GET', /Observation\?/, () =>
      jsonResponse(searchset([{ resourceType: 'Observation', id: 'o1' }], { total: 1 })),
    );
    const result = await provider.getManyReference('Observation', {
      target: 'subject',
      id: 'Patient/p1',
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'date', order: 'DESC' },
      filter: { status: 'final' },
    });
    expect(query(fake.calls[0].url)).toEqual([
      ['status', 'final'],
      ['_sort', '-date'],
      ['_count', '25'],
      ['_offset', '0'],
      ['_total', 'accurate'],
      ['subject', 'Patient/p1'],
    ]);
    expect(result).toMatchObject({ total: 1, data: [{ id: 'o1' }] });
    await expect(
      provider.getManyReference('Observation', {
        target: '',
        id: 'x',
        pagination: { page: 1, perPage: 1 },
        sort: { field: 'date', order: 'ASC' },
        filter: {},
      }),
    ).rejects.toThrow('getManyReference needs the target search parameter');
  });
});

describe('writes', () => {
  it('create POSTs the resource without the lastUpdated mirror and answers what the server stored', async () => {
    const { fake, provider } = setup();
    fake.on('POST', `${fhir}Patient`, (call) =>
      jsonResponse({ ...body(call), id: 'new', meta: { versionId: '1', lastUpdated: '2024-02-02T00:00:00Z' } }, 201),
    );
    const result = await provider.create('Patient', { data: { gender: 'male', lastUpdated: 'x', id: '' } });
    expect(body(fake.calls[0])).toEqual({ resourceType: 'Patient', gender: 'male' });
    expect(result.data).toMatchObject({ id: 'new', gender: 'male', lastUpdated: '2024-02-02T00:00:00Z' });
  });

  it('update PUTs with If-Match of the edited version; a 412 is an HttpError with the outcome', async () => {
    const { fake, provider } = setup();
    fake.once('PUT', `${fhir}Patient/p1`, (call) => jsonResponse({ ...body(call), meta: { versionId: '4' } }));
    const result = await provider.update('Patient', {
      id: 'p1',
      data: { id: 'p1', gender: 'other', meta: { versionId: '3' }, lastUpdated: 'y' },
      previousData: { id: 'p1', meta: { versionId: '3' } },
    });
    expect(fake.calls[0].headers['if-match']).toBe('W/"3"');
    expect(body(fake.calls[0])).toEqual({
      resourceType: 'Patient',
      id: 'p1',
      gender: 'other',
      meta: { versionId: '3' },
    });
    expect(result.data).toMatchObject({ id: 'p1', meta: { versionId: '4' } });

    fake.once('PUT', `${fhir}Patient/p1`, jsonResponse(conflict, 412));
    const error = await httpError(
      provider.update('Patient', {
        id: 'p1',
        data: { gender: 'male' },
        previousData: { id: 'p1', meta: { versionId: '3' } },
      }),
    );
    expect(error.status).toBe(412);
    expect(error.message).toBe('Version conflict (meta.versionId)');
    expect(outcomeOfHttpError(error)).toEqual(conflict);
  });

  it('updateMany reads the current versions and writes them in one guarded transaction', async () => {
    const { fake, provider } = setup();
    fake.on('GET', /Task\?_id=t1%2Ct2|Task\?_id=t1,t2/, () =>
      jsonResponse(
        searchset([
          { resourceType: 'Task', id: 't1', status: 'requested', meta: { versionId: '1' } },
          { resourceType: 'Task', id: 't2', status: 'requested', meta: { versionId: '5' } },
        ]),
      ),
    );
    fake.on('POST', fhir, () =>
      jsonResponse({
        resourceType: 'Bundle',
        type: 'transaction-response',
        entry: [{ response: { status: '200 OK' } }, { response: { status: '200 OK' } }],
      }),
    );
    const result = await provider.updateMany('Task', {
      ids: ['t1', 't2'],
      data: { status: 'completed', id: 'ignored' },
    });
    expect(result.data).toEqual(['t1', 't2']);
    const bundle = body(fake.callsTo('POST', fhir)[0]) as unknown as Bundle;
    expect(bundle.type).toBe('transaction');
    expect(bundle.entry?.map((entry) => [entry.request, entry.resource])).toEqual([
      [
        { method: 'PUT', url: 'Task/t1', ifMatch: 'W/"1"' },
        { resourceType: 'Task', id: 't1', status: 'completed', meta: { versionId: '1' } },
      ],
      [
        { method: 'PUT', url: 'Task/t2', ifMatch: 'W/"5"' },
        { resourceType: 'Task', id: 't2', status: 'completed', meta: { versionId: '5' } },
      ],
    ]);
  });

  it('updateMany refuses when a record is missing, and writes nothing', async () => {
    const { fake, provider } = setup();
    fake.on('GET', /Task\?_id=/, () => jsonResponse(searchset([{ resourceType: 'Task', id: 't1' }])));
    const error = await httpError(provider.updateMany('Task', { ids: ['t1', 'gone'], data: { status: 'completed' } }));
    expect(error.message).toBe('Not found: Task/gone');
    expect(fake.callsTo('POST', fhir)).toHaveLength(0);
  });

  it('delete DELETEs and answers the previous record', async () => {
    const { fake, provider } = setup();
    fake.on('DELETE', `${fhir}Patient/p1`, () => jsonResponse({ resourceType: 'OperationOutcome', issue: [] }));
    const result = await provider.delete('Patient', { id: 'p1', previousData: { id: 'p1', gender: 'male' } });
    expect(result.data).toEqual({ id: 'p1', gender: 'male' });
    expect(fake.calls).toHaveLength(1);
  });

  it('deleteMany sends one transaction of DELETEs; a refusal is an HttpError', async () => {
    const { fake, provider } = setup();
    fake.once('POST', fhir, (call) =>
      jsonResponse({
        resourceType: 'Bundle',
        type: 'transaction-response',
        entry: (body(call).entry as unknown[]).map(() => ({ response: { status: '200 OK' } })),
      }),
    );
    expect((await provider.deleteMany('Patient', { ids: ['a', 'b'] })).data).toEqual(['a', 'b']);
    expect(fake.calls).toHaveLength(1);
    expect(body(fake.calls[0])).toEqual({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [{ request: { method: 'DELETE', url: 'Patient/a' } }, { request: { method: 'DELETE', url: 'Patient/b' } }],
    });
    const forbidden: OperationOutcome = {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'forbidden', details: { text: 'Forbidden' } }],
    };
    fake.once('POST', fhir, jsonResponse(forbidden, 403));
    const error = await httpError(provider.deleteMany('Patient', { ids: ['a'] }));
    expect(error.status).toBe(403);
    expect((await provider.deleteMany('Patient', { ids: [] })).data).toEqual([]);
    expect(fake.calls).toHaveLength(2);
  });
});

describe('custom methods', () => {
  it('patch prepends a test of meta.versionId when given one', async () => {
    const { fake, provider } = setup();
    fake.on('PATCH', `${fhir}Patient/p1`, () => jsonResponse({ resourceType: 'Patient', id: 'p1', active: false }));
    const result = await provider.patch('Patient', {
      id: 'p1',
      versionId: '7',
      operations: [{ op: 'replace', path: '/active', value: false }],
    });
    expect(fake.calls[0].headers['content-type']).toBe('application/json-patch+json');
    expect(JSON.parse(fake.calls[0].body as string)).toEqual([
      { op: 'test', path: '/meta/versionId', value: '7' },
      { op: 'replace', path: '/active', value: false },
    ]);
    expect(result.data).toMatchObject({ id: 'p1', active: false });
    await expect(provider.patch('Patient', { id: 'p1', operations: [] })).rejects.toThrow(
      'A patch needs at least one operation',
    );
  });

  it('history, vread, searchBundle, graphql, expandValueSet, validate, executeBot and uploadAttachment wrap the client', async () => {
    const { fake, provider } = setup();
    fake.on('GET', `${fhir}Patient/p1/_history`, () => jsonResponse({ resourceType: 'Bundle', type: 'history' }));
    fake.on('GET', `${fhir}Patient/p1/_history/2`, () =>
      jsonResponse({ resourceType: 'Patient', id: 'p1', meta: { versionId: '2' } }),
    );
    fake.on('GET', `${fhir}Patient?name=eve&_revinclude=Observation:subject`, () => jsonResponse(searchset([])));
    fake.on('POST', `${fhir}$graphql`, () => jsonResponse({ data: { PatientList: [] } }));
    fake.on('GET', /ValueSet\/\$expand\?url=/, () =>
      jsonResponse({ resourceType: 'ValueSet', expansion: { contains: [] } }),
    );
    fake.on('POST', `${fhir}Patient/$validate`, () => jsonResponse({ resourceType: 'OperationOutcome', issue: [] }));
    fake.on('POST', `${fhir}Bot/b1/$execute`, () => jsonResponse({ ok: true }));
    fake.on('POST', /Binary\?_filename=a.txt$/, () => jsonResponse({ resourceType: 'Binary', id: 'bin1' }, 201));

    expect((await provider.history('Patient', { id: 'p1' })).data.type).toBe('history');
    expect((await provider.vread('Patient', { id: 'p1', versionId: '2' })).data.meta?.versionId).toBe('2');
    expect(
      (await provider.searchBundle('Patient', { query: 'name=eve&_revinclude=Observation:subject' })).data.type,
    ).toBe('searchset');
    const graph = await provider.graphql({ query: '{ PatientList { id } }', variables: { a: 1 } });
    expect(graph.data).toEqual({ data: { PatientList: [] } });
    expect(body(fake.callsTo('POST', `${fhir}$graphql`)[0])).toEqual({
      query: '{ PatientList { id } }',
      variables: { a: 1 },
    });
    const expanded = await provider.expandValueSet({
      url: 'http://hl7.org/fhir/ValueSet/administrative-gender',
      filter: 'fe',
    });
    expect(expanded.data.resourceType).toBe('ValueSet');
    expect(new URL(fake.callsTo('GET', /ValueSet/)[0].url).searchParams.get('filter')).toBe('fe');
    const verdict = await provider.validate('Patient', { data: { gender: 'male', lastUpdated: 'z' } });
    expect(verdict.data.resourceType).toBe('OperationOutcome');
    expect(body(fake.callsTo('POST', `${fhir}Patient/$validate`)[0])).toEqual({
      resourceType: 'Patient',
      gender: 'male',
    });
    expect((await provider.executeBot({ bot: 'b1', body: { x: 1 } })).data).toEqual({ ok: true });
    const upload = await provider.uploadAttachment({ data: 'hello', contentType: 'text/plain', filename: 'a.txt' });
    expect(upload.data).toEqual({ contentType: 'text/plain', url: 'Binary/bin1', title: 'a.txt' });
  });

  it('custom methods fail with HttpErrors too', async () => {
    const { fake, provider } = setup();
    fake.on('GET', `${fhir}Patient/gone/_history`, () =>
      jsonResponse(
        {
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'not-found', details: { text: 'Not found' } }],
        },
        404,
      ),
    );
    const error = await httpError(provider.history('Patient', { id: 'gone' }));
    expect(error.status).toBe(404);
    expect(error.message).toBe('Not found');
  });
});
