import type {
  Bundle,
  Media,
  OperationOutcome,
  Patient,
  SearchParameter,
  StructureDefinition,
} from '@medplum/fhirtypes';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { FakeFetch, fakeJwt, jsonResponse, textResponse } from './fakeFetch';
import { FhirClient, type FhirClientOptions } from './fhirClient';
import { SYSTEM_DEVICE } from './resourceReference';
import { RESOURCE_WRITE_EVENT, ResourceWriteEvent } from './resourceWriteEvent';

const server = 'http://ehr.test/';
const fhir = `${server}fhir/R4/`;
const outcome = (text: string): OperationOutcome => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'invalid', details: { text } }],
});

function setup(options: Partial<FhirClientOptions> = {}) {
  const fake = new FakeFetch();
  const client = new FhirClient({ baseUrl: server, fetch: fake.fetch, autoBatchTime: 0, ...options });
  return { fake, client };
}

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

function bodyOf(call: { body: unknown }): unknown {
  return JSON.parse(call.body as string);
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('FhirClient options', () => {
  it("refuses a base URL that does not start with http: 'Not a valid URL'", () => {
    expect(() => new FhirClient({ baseUrl: 'ftp://ehr.test/' })).toThrow('Not a valid URL');
    expect(() => new FhirClient({ baseUrl: 'ehr.test' })).toThrow('Not a valid URL');
  });

  it('defaults outside the browser: localhost:8103, fhir/R4, no cache', async () => {
    const fake = new FakeFetch().on('GET', /Patient\/1$/, () => jsonResponse({ resourceType: 'Patient', id: '1' }));
    const client = new FhirClient({ fetch: fake.fetch, autoBatchTime: 0 });
    expect(client.getFhirBaseUrl()).toBe('http://localhost:8103/fhir/R4/');
    await client.readResource('Patient', '1');
    await client.readResource('Patient', '1');
    expect(fake.calls).toHaveLength(2);
  });

  it('takes another FHIR path', () => {
    const { client } = setup({ fhirUrlPath: 'api/fhir' });
    expect(client.fhirUrl('Patient').toString()).toBe('http://ehr.test/api/fhir/Patient');
  });

  it('uses the global fetch by default', async () => {
    const fake = new FakeFetch().on('GET', /Patient\/1$/, () => jsonResponse({ resourceType: 'Patient', id: '1' }));
    vi.stubGlobal('fetch', fake.fetch);
    const client = new FhirClient({ baseUrl: server, autoBatchTime: 0 });
    expect(await client.readResource('Patient', '1')).toMatchObject({ id: '1' });
  });
});

describe('FHIR calls', () => {
  it('createResource POSTs FHIR JSON to the type and needs a resourceType', async () => {
    const { fake, client } = setup();
    fake.on('POST', `${fhir}Patient`, () => jsonResponse({ resourceType: 'Patient', id: 'new' }, 201));
    const created = await client.createResource<Patient>({ resourceType: 'Patient', active: true });
    expect(created.id).toBe('new');
    expect(fake.calls[0].headers['content-type']).toBe('application/fhir+json');
    expect(fake.calls[0].headers.accept).toContain('application/fhir+json');
    expect(bodyOf(fake.calls[0])).toEqual({ resourceType: 'Patient', active: true });
    const error = await rejection(client.createResource({} as Patient));
    expect(error.message).toBe('Missing resourceType');
    expect(error.status).toBe(400);
    expect(fake.calls).toHaveLength(1);
  });

  it('readResource GETs Type/id and needs a non-empty id', async () => {
    const { fake, client } = setup();
    fake.on('GET', `${fhir}Patient/p1`, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    expect((await client.readResource('Patient', 'p1')).id).toBe('p1');
    expect((await rejection(client.readResource('Patient', ''))).message).toBe('The resource id must not be empty');
    expect(fake.calls).toHaveLength(1);
  });

  it('readReference needs Type/id, and reads "system" as the System device', async () => {
    const { fake, client } = setup();
    fake.on('GET', `${fhir}Practitioner/d1`, () => jsonResponse({ resourceType: 'Practitioner', id: 'd1' }));
    expect(await client.readReference({ reference: 'Practitioner/d1' })).toMatchObject({ id: 'd1' });
    expect((await rejection(client.readReference({ reference: 'Practitioner' }))).message).toContain(
      'expected ResourceType/id',
    );
    expect(await client.readReference({ reference: 'system' })).toEqual(SYSTEM_DEVICE);
    expect(SYSTEM_DEVICE).toMatchObject({ id: 'system', deviceName: [{ name: 'System' }] });
    expect(fake.calls).toHaveLength(1);
  });

  it('updateResource PUTs Type/id, needs resourceType and id, and keeps the resource on 304', async () => {
    const { fake, client } = setup();
    fake.once('PUT', `${fhir}Patient/p1`, () =>
      jsonResponse({ resourceType: 'Patient', id: 'p1', meta: { versionId: '2' } }),
    );
    fake.once('PUT', `${fhir}Patient/p1`, () => new Response(null, { status: 304 }));
    expect((await client.updateResource<Patient>({ resourceType: 'Patient', id: 'p1' })).meta?.versionId).toBe('2');
    const unchanged: Patient = { resourceType: 'Patient', id: 'p1', active: false };
    expect(await client.updateResource(unchanged)).toBe(unchanged);
    expect((await rejection(client.updateResource({ resourceType: 'Patient' }))).message).toBe('Missing id');
    expect((await rejection(client.updateResource({ id: 'x' } as Patient))).message).toBe('Missing resourceType');
    expect(fake.calls).toHaveLength(2);
  });

  it('patchResource sends a JSON Patch', async () => {
    const { fake, client } = setup();
    fake.on('PATCH', `${fhir}Patient/p1`, () => jsonResponse({ resourceType: 'Patient', id: 'p1', active: true }));
    const operations = [{ op: 'replace' as const, path: '/active', value: true }];
    await client.patchResource('Patient', 'p1', operations);
    expect(fake.calls[0].headers['content-type']).toBe('application/json-patch+json');
    expect(bodyOf(fake.calls[0])).toEqual(operations);
  });

  it('deleteResource, readHistory and readVersion use the FHIR paths', async () => {
    const { fake, client } = setup();
    fake.on('DELETE', `${fhir}Patient/p1`, () => new Response(null, { status: 204 }));
    fake.on('GET', `${fhir}Patient/p1/_history`, () => jsonResponse({ resourceType: 'Bundle', type: 'history' }));
    fake.on('GET', `${fhir}Patient/p1/_history/3`, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    await expect(client.deleteResource('Patient', 'p1')).resolves.toBeUndefined();
    expect((await client.readHistory('Patient', 'p1')).type).toBe('history');
    expect((await client.readVersion('Patient', 'p1', '3')).id).toBe('p1');
    expect(fake.calls.map((call) => call.method)).toEqual(['DELETE', 'GET', 'GET']);
    await rejection(client.deleteResource('Patient', ''));
  });

  const searchBundle: Bundle = {
    resourceType: 'Bundle',
    type: 'searchset',
    total: 2,
    entry: [
      { resource: { resourceType: 'Patient', id: 'a' }, search: { mode: 'match' } },
      { resource: { resourceType: 'Organization', id: 'o' }, search: { mode: 'include' } },
      { resource: { resourceType: 'Patient', id: 'b' }, search: { mode: 'match' } },
    ],
  };

  it('search returns the Bundle; searchResources the matches with .bundle; searchOne asks for one', async () => {
    const { fake, client } = setup();
    fake.on('GET', /Patient\?/, () => jsonResponse(searchBundle));
    expect(await client.search('Patient', { name: 'eve', _include: 'Patient:organization' })).toEqual(searchBundle);
    expect(fake.calls[0].url).toBe(`${fhir}Patient?name=eve&_include=Patient:organization`);
    const resources = await client.searchResources('Patient', 'name=eve');
    expect(resources.map((patient) => patient.id)).toEqual(['a', 'b']);
    expect(resources.bundle.total).toBe(2);
    expect((await client.searchOne('Patient', 'name=eve'))?.id).toBe('a');
    expect(fake.calls[2].url).toBe(`${fhir}Patient?name=eve&_count=1`);
  });

  it('createResourceIfNoneExist sends If-None-Exist', async () => {
    const { fake, client } = setup();
    fake.on('POST', `${fhir}Patient`, () => jsonResponse({ resourceType: 'Patient', id: 'existing' }));
    await client.createResourceIfNoneExist({ resourceType: 'Patient' }, '?identifier=http://mrn|123');
    expect(fake.calls[0].headers['if-none-exist']).toBe('identifier=http://mrn|123');
  });

  it('executeBatch POSTs to the FHIR base; graphql POSTs query, operationName and variables', async () => {
    const { fake, client } = setup();
    fake.on('POST', fhir, () => jsonResponse({ resourceType: 'Bundle', type: 'batch-response' }));
    fake.on('POST', `${fhir}$graphql`, () => jsonResponse({ data: { PatientList: [] } }));
    await client.executeBatch({ resourceType: 'Bundle', type: 'transaction', entry: [] });
    expect(fake.calls[0].url).toBe(fhir);
    expect(
      (await client.graphql('query Q($n: String) { PatientList(name: $n) { id } }', 'Q', { n: 'eve' })).data,
    ).toEqual({
      PatientList: [],
    });
    expect(bodyOf(fake.calls[1])).toEqual({
      query: 'query Q($n: String) { PatientList(name: $n) { id } }',
      operationName: 'Q',
      variables: { n: 'eve' },
    });
  });

  it('valueSetExpand, readPatientEverything, readGraph and validateResource use their operations', async () => {
    const { fake, client } = setup();
    fake.on('GET', /ValueSet\/\$expand/, () => jsonResponse({ resourceType: 'ValueSet', status: 'active' }));
    fake.on('GET', `${fhir}Patient/p1/$everything`, () => jsonResponse({ resourceType: 'Bundle', type: 'searchset' }));
    fake.on('GET', /\$graph/, () => jsonResponse({ resourceType: 'Bundle', type: 'collection' }));
    fake.on('POST', `${fhir}Patient/$validate`, () =>
      jsonResponse({ resourceType: 'OperationOutcome', id: 'ok', issue: [] }),
    );
    await client.valueSetExpand({ url: 'http://hl7.org/fhir/ValueSet/administrative-gender', filter: 'fe', count: 10 });
    const expand = new URL(fake.calls[0].url);
    expect(expand.pathname).toBe('/fhir/R4/ValueSet/$expand');
    expect(Object.fromEntries(expand.searchParams)).toEqual({
      url: 'http://hl7.org/fhir/ValueSet/administrative-gender',
      filter: 'fe',
      count: '10',
    });
    await client.readPatientEverything('p1');
    await client.readGraph('Patient', 'p1', 'patient-summary');
    expect(fake.calls[2].url).toBe(`${fhir}Patient/p1/$graph?graph=patient-summary`);
    expect((await client.validateResource({ resourceType: 'Patient' })).id).toBe('ok');
    expect(bodyOf(fake.calls[3])).toEqual({ resourceType: 'Patient' });
  });

  it('expandProfile POSTs the url to StructureDefinition/$expand-profile', async () => {
    const { fake, client } = setup();
    fake.on('POST', /\$expand-profile/, () => jsonResponse({ resourceType: 'Bundle', type: 'collection' }));
    await client.expandProfile('http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient');
    const url = new URL(fake.calls[0].url);
    expect(url.pathname).toBe('/fhir/R4/StructureDefinition/$expand-profile');
    expect(url.searchParams.get('url')).toBe('http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient');
    expect(bodyOf(fake.calls[0])).toMatchObject({ parameter: [{ name: 'url' }] });
  });

  it('executeBot by id or identifier, with JSON or text bodies', async () => {
    const { fake, client } = setup();
    fake.on('POST', `${fhir}Bot/b1/$execute`, (call) => jsonResponse({ echoed: bodyOf(call) }));
    fake.on('POST', /Bot\/\$execute\?identifier=/, () => textResponse('plain answer'));
    expect(await client.executeBot('b1', { hello: 1 })).toEqual({ echoed: { hello: 1 } });
    expect(fake.calls[0].headers['content-type']).toBe('application/json');
    expect(
      await client.executeBot({ system: 'https://bots', value: 'intake' }, 'MSH|^~\\&', 'x-application/hl7-v2+er7'),
    ).toBe('plain answer');
    expect(new URL(fake.calls[1].url).searchParams.get('identifier')).toBe('https://bots|intake');
    expect(fake.calls[1].body).toBe('MSH|^~\\&');
    expect(fake.calls[1].headers['content-type']).toBe('x-application/hl7-v2+er7');
    await rejection(client.executeBot('', {}));
  });

  it('pushToAgent POSTs destination, body, contentType and waitForResponse', async () => {
    const { fake, client } = setup();
    fake.on('POST', `${fhir}Agent/a1/$push`, () => jsonResponse({ ok: true }));
    await client.pushToAgent(
      { reference: 'Agent/a1' },
      { resourceType: 'Device', id: 'd1' },
      'ping',
      'text/plain',
      true,
    );
    expect(bodyOf(fake.calls[0])).toEqual({
      destination: 'Device/d1',
      body: 'ping',
      contentType: 'text/plain',
      waitForResponse: true,
    });
  });

  it('getSubscriptionBindingToken returns token and websocket URL, never from the cache', async () => {
    const { fake, client } = setup({ cacheTime: 60_000 });
    fake.on('GET', `${fhir}Subscription/s1/$get-ws-binding-token`, () =>
      jsonResponse({
        resourceType: 'Parameters',
        parameter: [
          { name: 'token', valueString: 'tok' },
          { name: 'expiration', valueDateTime: '2030-01-01T00:00:00Z' },
          { name: 'websocket-url', valueUrl: 'ws://ehr.test/ws/subscriptions-r4' },
        ],
      }),
    );
    expect(await client.getSubscriptionBindingToken('s1')).toEqual({
      token: 'tok',
      websocketUrl: 'ws://ehr.test/ws/subscriptions-r4',
      expiration: '2030-01-01T00:00:00Z',
    });
    await client.getSubscriptionBindingToken('s1');
    expect(fake.calls).toHaveLength(2);
  });

  it("getSubscriptionBindingToken fails with 'Failed to get token' / 'Failed to get URL…'", async () => {
    const { fake, client } = setup();
    fake.once('GET', /s1\/\$get-ws-binding-token/, () => jsonResponse({ resourceType: 'Parameters', parameter: [] }));
    fake.once('GET', /s1\/\$get-ws-binding-token/, () =>
      jsonResponse({ resourceType: 'Parameters', parameter: [{ name: 'token', valueString: 't' }] }),
    );
    expect((await rejection(client.getSubscriptionBindingToken('s1'))).message).toBe('Failed to get token');
    expect((await rejection(client.getSubscriptionBindingToken('s1'))).message).toBe(
      'Failed to get URL from $get-ws-binding-token',
    );
  });

  it('sendEmail and invite POST JSON to their services', async () => {
    const { fake, client } = setup();
    fake.on('POST', `${server}email/v1/send`, () =>
      jsonResponse({ resourceType: 'OperationOutcome', id: 'ok', issue: [] }),
    );
    fake.on('POST', `${server}admin/projects/p1/invite`, () => jsonResponse({ resourceType: 'ProjectMembership' }));
    await client.sendEmail({ to: 'a@b.c', subject: 'Hi', text: 'Hello' });
    expect(fake.calls[0].headers['content-type']).toBe('application/json');
    expect(bodyOf(fake.calls[0])).toEqual({ to: 'a@b.c', subject: 'Hi', text: 'Hello' });
    await client.invite('p1', { resourceType: 'Practitioner', firstName: 'A', lastName: 'B', email: 'a@b.c' });
    expect(bodyOf(fake.calls[1])).toMatchObject({ resourceType: 'Practitioner', email: 'a@b.c' });
  });

  it('keyValue reads and writes text, and reads a missing key as undefined', async () => {
    const { fake, client } = setup();
    fake.once('GET', `${server}keyvalue/v1/theme`, () => textResponse('dark'));
    fake.once('GET', `${server}keyvalue/v1/theme`, () => textResponse('', 404));
    fake.on('PUT', `${server}keyvalue/v1/theme`, () => new Response(null, { status: 204 }));
    fake.on('DELETE', `${server}keyvalue/v1/theme`, () => new Response(null, { status: 204 }));
    expect(await client.keyValue.get('theme')).toBe('dark');
    expect(await client.keyValue.get('theme')).toBeUndefined();
    await client.keyValue.set('theme', 'light');
    expect(fake.calls[2].body).toBe('light');
    expect(fake.calls[2].headers['content-type']).toBe('text/plain');
    await client.keyValue.delete('theme');
    expect(fake.calls[3].method).toBe('DELETE');
  });

  it("createPdf is refused unless enabled: 'PDF creation not enabled'", async () => {
    const { fake, client } = setup();
    expect((await rejection(client.createPdf({ docDefinition: {} }))).message).toBe('PDF creation not enabled');
    const createPdf = vi.fn(async () => new Uint8Array([37, 80, 68, 70]));
    const enabled = setup({ createPdf });
    enabled.fake.on('POST', /Binary/, () =>
      jsonResponse({ resourceType: 'Binary', id: 'pdf1', contentType: 'application/pdf' }),
    );
    await enabled.client.createPdf({ docDefinition: { content: 'x' }, filename: 'note.pdf' });
    expect(createPdf).toHaveBeenCalledWith({ content: 'x' }, undefined, undefined);
    expect(enabled.fake.calls[0].url).toBe(`${fhir}Binary?_filename=note.pdf`);
    expect(enabled.fake.calls[0].headers['content-type']).toBe('application/pdf');
    expect(fake.calls).toHaveLength(0);
  });
});

describe('files', () => {
  it('download returns the bytes of a Binary by relative or absolute URL', async () => {
    const { fake, client } = setup();
    fake.on(
      'GET',
      /Binary\/b1$/,
      () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } }),
    );
    const blob = await client.download('Binary/b1');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(fake.calls[0]).toMatchObject({ url: `${fhir}Binary/b1`, headers: { accept: '*/*' } });
    await client.download(`${fhir}Binary/b1`);
    expect(fake.calls[1].url).toBe(`${fhir}Binary/b1`);
  });

  it('createBinary uploads raw bytes with _filename and X-Security-Context, reporting start and end in Node', async () => {
    const { fake, client } = setup();
    fake.on('POST', /Binary/, () =>
      jsonResponse(
        { resourceType: 'Binary', id: 'b1', contentType: 'text/plain', url: 'http://ehr.test/storage/b1' },
        201,
      ),
    );
    const progress = vi.fn();
    const binary = await client.createBinary({
      data: 'héllo',
      contentType: 'text/plain',
      filename: 'a b.txt',
      securityContext: { reference: 'Patient/p1' },
      onProgress: progress,
    });
    expect(binary.id).toBe('b1');
    expect(fake.calls[0].url).toBe(`${fhir}Binary?_filename=a+b.txt`);
    expect(fake.calls[0].headers['x-security-context']).toBe('Patient/p1');
    expect(fake.calls[0].headers['content-type']).toBe('text/plain');
    expect(fake.calls[0].body).toBe('héllo');
    expect(progress.mock.calls).toEqual([
      [{ loaded: 0, total: 6, lengthComputable: true }],
      [{ loaded: 6, total: 6, lengthComputable: true }],
    ]);
  });

  it('createAttachment points to the stored Binary', async () => {
    const { fake, client } = setup();
    fake.once('POST', /Binary/, () =>
      jsonResponse({ resourceType: 'Binary', id: 'b1', url: 'http://ehr.test/storage/b1' }),
    );
    fake.once('POST', /Binary/, () => jsonResponse({ resourceType: 'Binary', id: 'b2' }));
    const blob = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
    expect(await client.createAttachment({ data: blob, contentType: 'image/png', filename: 'x.png' })).toEqual({
      contentType: 'image/png',
      url: 'http://ehr.test/storage/b1',
      title: 'x.png',
    });
    expect(
      await client.createAttachment({ data: new Uint8Array([1]), contentType: 'application/octet-stream' }),
    ).toEqual({
      contentType: 'application/octet-stream',
      url: 'Binary/b2',
    });
  });

  it('uses XMLHttpRequest for upload progress where it exists', async () => {
    const sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = [];
    class FakeXhr {
      upload: { onprogress?: (event: { loaded: number; total: number; lengthComputable: boolean }) => void } = {};
      onload?: () => void;
      onerror?: () => void;
      onabort?: () => void;
      responseType = '';
      status = 0;
      statusText = '';
      response: unknown;
      private request = { method: '', url: '', headers: {} as Record<string, string>, body: undefined as unknown };
      open(method: string, url: string) {
        this.request.method = method;
        this.request.url = url;
      }
      setRequestHeader(key: string, value: string) {
        this.request.headers[key] = value;
      }
      getAllResponseHeaders() {
        return 'content-type: application/fhir+json\r\n';
      }
      abort() {}
      send(body: unknown) {
        this.request.body = body;
        sent.push(this.request);
        queueMicrotask(() => {
          this.upload.onprogress?.({ loaded: 2, total: 4, lengthComputable: true });
          this.upload.onprogress?.({ loaded: 4, total: 4, lengthComputable: true });
          this.status = 201;
          this.response = new Blob([JSON.stringify({ resourceType: 'Binary', id: 'x1' })]);
          this.onload?.();
        });
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { fake, client } = setup();
    const progress = vi.fn();
    const binary = await client.createBinary({ data: 'abcd', contentType: 'text/plain', onProgress: progress });
    expect(binary.id).toBe('x1');
    expect(fake.calls).toHaveLength(0);
    expect(sent[0]).toMatchObject({ method: 'POST', url: `${fhir}Binary`, body: 'abcd' });
    expect(progress.mock.calls.map(([p]) => p.loaded)).toEqual([2, 4]);
  });

  it('createMedia creates it as preparation, uploads with the Media as security context, then completes it', async () => {
    const { fake, client } = setup();
    fake.on('POST', `${fhir}Media`, (call) => jsonResponse({ ...(bodyOf(call) as Media), id: 'm1' }, 201));
    fake.on('POST', /Binary/, () => jsonResponse({ resourceType: 'Binary', id: 'b1' }, 201));
    fake.on('PUT', `${fhir}Media/m1`, (call) => jsonResponse(bodyOf(call)));
    const media = await client.createMedia({
      data: 'img',
      contentType: 'image/jpeg',
      filename: 'photo.jpg',
      additionalFields: { subject: { reference: 'Patient/p1' } },
    });
    expect(bodyOf(fake.calls[0])).toEqual({
      resourceType: 'Media',
      status: 'preparation',
      content: { contentType: 'image/jpeg' },
      subject: { reference: 'Patient/p1' },
    });
    expect(fake.calls[1].headers['x-security-context']).toBe('Media/m1');
    expect(media).toMatchObject({
      id: 'm1',
      status: 'completed',
      content: { contentType: 'image/jpeg', url: 'Binary/b1', title: 'photo.jpg' },
    });
  });

  it('createComment writes a completed Communication about the resource from the profile', async () => {
    const { fake, client } = setup();
    fake.on('GET', `${server}auth/me`, () =>
      jsonResponse({
        profile: { resourceType: 'Practitioner', id: 'dr1' },
        project: { resourceType: 'Project', id: 'pr1' },
        membership: { resourceType: 'ProjectMembership', id: 'm1' },
      }),
    );
    fake.on('POST', `${fhir}Communication`, (call) => jsonResponse({ ...(bodyOf(call) as object), id: 'c1' }, 201));
    client.setAccessToken('opaque');
    await client.refreshProfile();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2024-05-06T07:08:09.000Z'));
    await client.createComment(
      {
        resourceType: 'Encounter',
        id: 'e1',
        status: 'in-progress',
        class: { code: 'AMB' },
        subject: { reference: 'Patient/p1' },
      },
      'Seen today',
    );
    expect(bodyOf(fake.calls[1])).toEqual({
      resourceType: 'Communication',
      status: 'completed',
      basedOn: [{ reference: 'Encounter/e1' }],
      encounter: { reference: 'Encounter/e1' },
      subject: { reference: 'Patient/p1' },
      sender: { reference: 'Practitioner/dr1' },
      sent: '2024-05-06T07:08:09.000Z',
      payload: [{ contentString: 'Seen today' }],
    });
    await client.createComment({ resourceType: 'Patient', id: 'p2' }, 'Note');
    expect(bodyOf(fake.calls[2])).toMatchObject({
      basedOn: [{ reference: 'Patient/p2' }],
      subject: { reference: 'Patient/p2' },
    });
    expect(bodyOf(fake.calls[2])).not.toHaveProperty('encounter');
  });
});

describe('errors', () => {
  it('builds the error from the OperationOutcome of a ≥400 answer', async () => {
    const { fake, client } = setup();
    fake.on('POST', `${fhir}Patient`, () => jsonResponse(outcome('Name is required'), 400));
    const error = await rejection(client.createResource({ resourceType: 'Patient' }));
    expect(error.status).toBe(400);
    expect(error.message).toBe('Name is required');
    expect(error.outcome).toEqual(outcome('Name is required'));
  });

  it('answers a 404 without JSON with a not-found error', async () => {
    const { fake, client } = setup();
    fake.on('GET', /Patient\/gone/, () => textResponse('Cannot GET', 404, 'text/html'));
    const error = await rejection(client.readResource('Patient', 'gone'));
    expect(error.status).toBe(404);
    expect(error.message).toBe('Not found');
    expect(error.outcome.id).toBe('not-found');
  });

  it('retries a 500 and succeeds, 200 ms later', async () => {
    vi.useFakeTimers();
    const { fake, client } = setup();
    fake.once('GET', /Patient\/p1/, () => jsonResponse(outcome('busy'), 500));
    fake.on('GET', /Patient\/p1/, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    const result = client.readResource('Patient', 'p1');
    await vi.advanceTimersByTimeAsync(199);
    expect(fake.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await result).id).toBe('p1');
    expect(fake.calls).toHaveLength(2);
  });

  it('rejects after three 500s with the last outcome', async () => {
    vi.useFakeTimers();
    const { fake, client } = setup();
    fake.on('GET', /Patient\/p1/, () => jsonResponse(outcome('database down'), 500));
    const result = rejection(client.readResource('Patient', 'p1'));
    await vi.advanceTimersByTimeAsync(400);
    const error = await result;
    expect(error.status).toBe(500);
    expect(error.message).toBe('database down');
    expect(fake.calls).toHaveLength(3);
  });

  it('raises an offline event when the first try fails on the network', async () => {
    vi.useFakeTimers();
    let tries = 0;
    const client = new FhirClient({
      baseUrl: server,
      autoBatchTime: 0,
      fetch: async () => {
        tries++;
        if (tries === 1) throw new TypeError('Failed to fetch');
        return jsonResponse({ resourceType: 'Patient', id: 'p1' });
      },
    });
    const offline = vi.fn();
    client.addEventListener('offline', offline);
    const result = client.readResource('Patient', 'p1');
    await vi.advanceTimersByTimeAsync(200);
    expect((await result).id).toBe('p1');
    expect(offline).toHaveBeenCalledTimes(1);
  });

  it('cancels a request with its AbortSignal', async () => {
    const { fake, client } = setup();
    fake.on('GET', /Patient\/slow/, () => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const result = client.readResource('Patient', 'slow', { signal: controller.signal });
    await Promise.resolve();
    controller.abort(new DOMException('Left the page', 'AbortError'));
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.calls[0].signal?.aborted).toBe(true);
    await expect(client.readResource('Patient', 'slow', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});

describe('GET cache', () => {
  function cached(options: Partial<FhirClientOptions> = {}) {
    const context = setup({ cacheTime: 60_000, ...options });
    context.fake.on('GET', /Patient\/p\d$/, (call) =>
      jsonResponse({ resourceType: 'Patient', id: call.url.split('/').pop() }),
    );
    context.fake.on('GET', /Patient\?/, () => jsonResponse({ resourceType: 'Bundle', type: 'searchset' }));
    context.fake.on('GET', /Observation\?/, () => jsonResponse({ resourceType: 'Bundle', type: 'searchset' }));
    return context;
  }

  it('answers repeated and concurrent GETs from one request until cacheTime has passed', async () => {
    vi.useFakeTimers();
    const { fake, client } = cached();
    const [a, b] = await Promise.all([client.readResource('Patient', 'p1'), client.readResource('Patient', 'p1')]);
    expect(a).toEqual(b);
    await client.readResource('Patient', 'p1');
    expect(fake.calls).toHaveLength(1);
    expect(client.getCachedResource('Patient', 'p1')?.id).toBe('p1');
    vi.advanceTimersByTime(59_999);
    await client.readResource('Patient', 'p1');
    expect(fake.calls).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await client.readResource('Patient', 'p1');
    expect(fake.calls).toHaveLength(2);
  });

  it('keeps at most resourceCacheSize entries', async () => {
    const { fake, client } = cached({ resourceCacheSize: 2 });
    await client.readResource('Patient', 'p1');
    await client.readResource('Patient', 'p2');
    await client.readResource('Patient', 'p3');
    await client.readResource('Patient', 'p3');
    await client.readResource('Patient', 'p1');
    expect(fake.calls.map((call) => call.url.split('/').pop())).toEqual(['p1', 'p2', 'p3', 'p1']);
  });

  it('a write to a type invalidates cached GETs of that type only, and caches what was written', async () => {
    const { fake, client } = cached();
    fake.on('PUT', `${fhir}Patient/p1`, (call) => jsonResponse(bodyOf(call)));
    await client.readResource('Patient', 'p1');
    await client.search('Patient', 'name=eve');
    await client.search('Observation', 'code=x');
    await client.updateResource({ resourceType: 'Patient', id: 'p1', active: true });
    expect((await client.readResource('Patient', 'p1')).active).toBe(true);
    await client.search('Patient', 'name=eve');
    await client.search('Observation', 'code=x');
    expect(fake.calls.map((call) => `${call.method} ${call.url.replace(fhir, '')}`)).toEqual([
      'GET Patient/p1',
      'GET Patient?name=eve',
      'GET Observation?code=x',
      'PUT Patient/p1',
      'GET Patient?name=eve',
    ]);
  });

  it('has forgotten the cached searches of a written type when it announces the write', async () => {
    const { fake, client } = cached();
    fake.on('PUT', `${fhir}Task/t1`, (call) => jsonResponse(bodyOf(call)));
    fake.on('GET', /Task\?/, () => jsonResponse({ resourceType: 'Bundle', type: 'searchset' }));
    await client.search('Task', 'status=ready');
    let searchedAgain: Promise<unknown> | undefined;
    // A listener that asks again in the same turn, as a screen keeping a count current does.
    client.addEventListener(RESOURCE_WRITE_EVENT, () => {
      searchedAgain = client.search('Task', 'status=ready');
    });
    await client.updateResource({ resourceType: 'Task', id: 't1', status: 'completed', intent: 'order' });
    await searchedAgain;
    expect(fake.callsTo('GET', /Task\?status=ready/)).toHaveLength(2);
  });

  it('a batch or transaction invalidates everything; an operation nothing', async () => {
    const { fake, client } = cached();
    fake.on('POST', fhir, () => jsonResponse({ resourceType: 'Bundle', type: 'transaction-response' }));
    fake.on('POST', /\$validate/, () => jsonResponse({ resourceType: 'OperationOutcome', issue: [] }));
    await client.readResource('Patient', 'p1');
    await client.validateResource({ resourceType: 'Patient' });
    await client.readResource('Patient', 'p1');
    expect(fake.callsTo('GET', /Patient\/p1/)).toHaveLength(1);
    await client.executeBatch({ resourceType: 'Bundle', type: 'transaction' });
    await client.readResource('Patient', 'p1');
    expect(fake.callsTo('GET', /Patient\/p1/)).toHaveLength(2);
  });

  it('announces successful writes with their types (a batch: its writing entries), not reads, failures or operations', async () => {
    const { fake, client } = cached();
    const written: (readonly string[] | undefined)[] = [];
    client.addEventListener(RESOURCE_WRITE_EVENT, (event) => written.push((event as ResourceWriteEvent).resourceTypes));
    fake.on('POST', `${fhir}StructureDefinition`, (call) => jsonResponse({ ...(bodyOf(call) as object), id: 'sd1' }));
    fake.on('POST', `${fhir}SearchParameter`, () => jsonResponse(outcome('code is required'), 400));
    fake.on('POST', /\$validate/, () => jsonResponse({ resourceType: 'OperationOutcome', issue: [] }));
    fake.on('POST', fhir, () => jsonResponse({ resourceType: 'Bundle', type: 'transaction-response' }));
    await client.readResource('Patient', 'p1');
    await client.createResource({ resourceType: 'StructureDefinition' } as StructureDefinition);
    await expect(client.createResource({ resourceType: 'SearchParameter' } as SearchParameter)).rejects.toThrow(
      'code is required',
    );
    await client.validateResource({ resourceType: 'Patient' });
    await client.executeBatch({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        { request: { method: 'GET', url: 'Patient/p1' } },
        { request: { method: 'DELETE', url: 'SearchParameter/sp1' } },
        { resource: { resourceType: 'Patient' }, request: { method: 'POST', url: 'Patient' } },
      ],
    });
    await client.executeBatch({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [{ request: { method: 'GET', url: 'Patient/p1' } }],
    });
    await client.executeBatch({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [{ request: { method: 'POST', url: '' } }],
    });
    expect(written).toEqual([['StructureDefinition'], ['SearchParameter', 'Patient'], undefined]);
    expect(new ResourceWriteEvent(undefined).touches('SearchParameter')).toBe(true);
    expect(new ResourceWriteEvent(['Patient']).touches('SearchParameter')).toBe(false);
  });

  it('a batch of reads only (such as an automatic batch) keeps the cache', async () => {
    const { fake, client } = cached();
    fake.on('POST', fhir, () => jsonResponse({ resourceType: 'Bundle', type: 'batch-response', entry: [] }));
    await client.readResource('Patient', 'p1');
    await client.executeBatch({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [{ request: { method: 'GET', url: 'Patient/p2' } }],
    });
    await client.readResource('Patient', 'p1');
    expect(fake.callsTo('GET', /Patient\/p1/)).toHaveLength(1);
    await client.executeBatch({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [{ request: { method: 'DELETE', url: 'Patient/p1' } }],
    });
    await client.readResource('Patient', 'p1');
    expect(fake.callsTo('GET', /Patient\/p1/)).toHaveLength(2);
  });

  it('invalidateSearches drops searches of a type but not reads; invalidateAll drops everything', async () => {
    const { fake, client } = cached();
    await client.readResource('Patient', 'p1');
    await client.search('Patient', 'name=eve');
    client.invalidateSearches('Patient');
    await client.readResource('Patient', 'p1');
    await client.search('Patient', 'name=eve');
    expect(fake.calls).toHaveLength(3);
    client.invalidateAll();
    await client.readResource('Patient', 'p1');
    expect(fake.calls).toHaveLength(4);
  });

  it("cache 'reload' fetches anew; a failed GET is not kept", async () => {
    const { fake, client } = cached();
    fake.once('GET', /Patient\/bad$/, () => jsonResponse(outcome('nope'), 400));
    fake.on('GET', /Patient\/bad$/, () => jsonResponse({ resourceType: 'Patient', id: 'bad' }));
    await client.readResource('Patient', 'p1');
    await client.readResource('Patient', 'p1', { cache: 'reload' });
    expect(fake.callsTo('GET', /p1$/)).toHaveLength(2);
    await rejection(client.readResource('Patient', 'bad'));
    expect((await client.readResource('Patient', 'bad')).id).toBe('bad');
  });

  it('one caller aborting does not fail another waiting for the same GET', async () => {
    const { fake, client } = setup({ cacheTime: 60_000 });
    let answer!: (response: Response) => void;
    fake.on('GET', /Patient\/p1$/, () => new Promise<Response>((resolve) => (answer = resolve)));
    const controller = new AbortController();
    const first = client.readResource('Patient', 'p1', { signal: controller.signal });
    const second = client.readResource('Patient', 'p1', { signal: new AbortController().signal });
    controller.abort(new DOMException('closed', 'AbortError'));
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(answer).toBeDefined());
    answer(jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    expect((await second).id).toBe('p1');
    expect(fake.calls).toHaveLength(1);
  });
});

describe('automatic batching', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  function batching(options: Partial<FhirClientOptions> = {}) {
    const context = setup({ autoBatchTime: 100, ...options });
    context.fake.on('POST', fhir, (call) => {
      const bundle = bodyOf(call) as Bundle;
      return jsonResponse({
        resourceType: 'Bundle',
        type: 'batch-response',
        entry: bundle.entry?.map((entry) =>
          entry.request?.url === 'Patient/missing'
            ? { response: { status: '404 Not Found', outcome: { ...outcome('Not found'), id: 'not-found' } } }
            : {
                resource: { resourceType: 'Patient', id: entry.request?.url.split('/')[1] },
                response: { status: '200 OK' },
              },
        ),
      });
    });
    context.fake.on('GET', /Patient\/\w+$/, (call) =>
      jsonResponse({ resourceType: 'Patient', id: call.url.split('/').pop() }),
    );
    return context;
  }

  it('sends GETs issued within 100 ms as one batch and splits the answer, one entry failing', async () => {
    const { fake, client } = batching();
    const a = client.readResource('Patient', 'a');
    const missing = rejection(client.readResource('Patient', 'missing'));
    await vi.advanceTimersByTimeAsync(50);
    const b = client.readResource('Patient', 'b');
    expect(fake.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(50);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({ method: 'POST', url: fhir });
    expect(bodyOf(fake.calls[0])).toEqual({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { request: { method: 'GET', url: 'Patient/a' } },
        { request: { method: 'GET', url: 'Patient/missing' } },
        { request: { method: 'GET', url: 'Patient/b' } },
      ],
    });
    expect((await a).id).toBe('a');
    expect((await b).id).toBe('b');
    const error = await missing;
    expect(error.status).toBe(404);
    expect(error.message).toBe('Not found');
  });

  it('keeps batched answers in the cache', async () => {
    const { fake, client } = batching({ cacheTime: 60_000 });
    const first = Promise.all([client.readResource('Patient', 'a'), client.readResource('Patient', 'b')]);
    await vi.advanceTimersByTimeAsync(100);
    await first;
    const again = Promise.all([client.readResource('Patient', 'a'), client.readResource('Patient', 'b')]);
    await vi.advanceTimersByTimeAsync(100);
    expect((await again).map((patient) => patient.id)).toEqual(['a', 'b']);
    expect(fake.calls).toHaveLength(1);
  });

  it('sends a single queued GET on its own', async () => {
    const { fake, client } = batching();
    const a = client.readResource('Patient', 'a');
    await vi.advanceTimersByTimeAsync(100);
    expect((await a).id).toBe('a');
    expect(fake.calls).toEqual([expect.objectContaining({ method: 'GET', url: `${fhir}Patient/a` })]);
  });

  it('does not batch across windows, non-FHIR GETs, or GETs with their own headers', async () => {
    const { fake, client } = batching();
    fake.on('GET', `${server}auth/me`, () => jsonResponse({}));
    const a = client.readResource('Patient', 'a');
    await vi.advanceTimersByTimeAsync(100);
    const b = client.readResource('Patient', 'b');
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all([a, b]);
    await client.get(`${server}auth/me`);
    await client.get(`${fhir}Patient/c`, { headers: { 'X-Trace': '1' } });
    expect(fake.calls.map((call) => call.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
  });

  it('autoBatchTime 0 sends GETs at once', async () => {
    const { fake, client } = batching({ autoBatchTime: 0 });
    const read = client.readResource('Patient', 'a');
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.calls).toHaveLength(1);
    await read;
  });

  it('an aborted GET leaves the queue before the batch is sent', async () => {
    const { fake, client } = batching();
    const controller = new AbortController();
    const aborted = client.readResource('Patient', 'a', { signal: controller.signal });
    const kept = client.readResource('Patient', 'b');
    controller.abort(new DOMException('closed', 'AbortError'));
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(100);
    expect((await kept).id).toBe('b');
    expect(fake.calls).toEqual([expect.objectContaining({ method: 'GET', url: `${fhir}Patient/b` })]);
  });
});

describe('asynchronous requests', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('bulkExport kicks off with Prefer: respond-async and polls Content-Location every 1000 ms until 200', async () => {
    const { fake, client } = setup();
    const statusUrl = `${fhir}bulkdata/export/job1`;
    fake.on('GET', /\$export/, () =>
      jsonResponse({ resourceType: 'OperationOutcome', id: 'accepted', issue: [] }, 202, {
        'content-location': statusUrl,
      }),
    );
    fake.once('GET', statusUrl, () => new Response(null, { status: 202 }));
    fake.once('GET', statusUrl, () => jsonResponse({ transactionTime: 't', output: [{ type: 'Patient', url: 'u' }] }));
    const result = client.bulkExport('Group/g1', 'Patient,Observation', '2024-01-01T00:00:00Z');
    await vi.advanceTimersByTimeAsync(0);
    const kickoff = new URL(fake.calls[0].url);
    expect(kickoff.pathname).toBe('/fhir/R4/Group/g1/$export');
    expect(kickoff.searchParams.get('_type')).toBe('Patient,Observation');
    expect(kickoff.searchParams.get('_since')).toBe('2024-01-01T00:00:00Z');
    expect(fake.calls[0].headers.prefer).toBe('respond-async');
    await vi.advanceTimersByTimeAsync(999);
    expect(fake.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await result).toEqual({ transactionTime: 't', output: [{ type: 'Patient', url: 'u' }] });
    expect(fake.calls).toHaveLength(3);
  });

  it('follows an AsyncJob until it completes, and fails when it fails', async () => {
    const { fake, client } = setup();
    fake.on('POST', /\$reindex/, () => jsonResponse({}, 202, { 'content-location': `${fhir}AsyncJob/j1` }));
    fake.once('GET', `${fhir}AsyncJob/j1`, () =>
      jsonResponse({ resourceType: 'AsyncJob', id: 'j1', status: 'active' }),
    );
    fake.once('GET', `${fhir}AsyncJob/j1`, () =>
      jsonResponse({ resourceType: 'AsyncJob', id: 'j1', status: 'completed' }),
    );
    fake.once('GET', `${fhir}AsyncJob/j1`, () => jsonResponse({ resourceType: 'AsyncJob', id: 'j1', status: 'error' }));
    const done = client.post(`${fhir}$reindex`, {});
    await vi.advanceTimersByTimeAsync(2000);
    expect(await done).toMatchObject({ status: 'completed' });
    const failed = rejection(client.post(`${fhir}$reindex`, {}));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await failed).message).toContain('ended with error');
  });

  it('returns the 202 answer itself when asked not to poll', async () => {
    const { fake, client } = setup();
    fake.on('POST', /\$reindex/, () =>
      jsonResponse({ resourceType: 'OperationOutcome', id: 'accepted', issue: [] }, 202, { 'content-location': 'x' }),
    );
    expect(await client.post(`${fhir}$reindex`, {}, undefined, { pollStatusOnAccepted: false })).toMatchObject({
      id: 'accepted',
    });
    expect(fake.calls).toHaveLength(1);
  });
});

describe('tokens on FHIR requests', () => {
  it('sends the access token as a Bearer header', async () => {
    const { fake, client } = setup();
    fake.on('GET', /Patient\/p1/, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    client.setAccessToken(fakeJwt({ exp: Date.now() / 1000 + 3600 }));
    await client.readResource('Patient', 'p1');
    expect(fake.calls[0].headers.authorization).toBe(`Bearer ${client.getAccessToken()}`);
  });
});
