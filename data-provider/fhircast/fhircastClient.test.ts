import { afterEach, describe, expect, it, vi } from 'vitest';
import { FHIRCAST_HUB_PATH, FhircastClient, FhircastHubError, type FhircastFetch } from './fhircastClient';

interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function fakeFetch(answers: { status?: number; body?: unknown }[]) {
  const calls: RecordedCall[] = [];
  const fetch: FhircastFetch = async (url, init) => {
    calls.push({ url, ...init });
    const answer = answers[calls.length - 1] ?? { body: {} };
    const status = answer.status ?? 200;
    return {
      ok: status < 400,
      status,
      json: async () => {
        if (answer.body === undefined) throw new SyntaxError('Unexpected end of JSON input');
        return answer.body;
      },
    };
  };
  return { fetch, calls };
}

const patientContext = [{ key: 'patient', resource: { resourceType: 'Patient' as const, id: 'p1' } }];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FhircastClient setup', () => {
  it('uses the hub path fhircast/STU3 below the base URL', async () => {
    expect(FHIRCAST_HUB_PATH).toBe('fhircast/STU3');
    const { fetch, calls } = fakeFetch([{ body: { context: [] } }, { body: { context: [] } }]);
    await new FhircastClient({ baseUrl: 'http://localhost:8103', fetch }).getCurrentContext('t');
    await new FhircastClient({ baseUrl: 'https://emr.example.org/base/', fetch, hubPath: 'hub' }).getCurrentContext(
      't',
    );
    expect(calls.map((call) => call.url)).toEqual([
      'http://localhost:8103/fhircast/STU3/t',
      'https://emr.example.org/base/hub/t',
    ]);
  });
  it('refuses a base URL that is not http', () => {
    const { fetch } = fakeFetch([]);
    expect(() => new FhircastClient({ baseUrl: 'ftp://x', fetch })).toThrow('Not a valid URL');
    expect(() => new FhircastClient({ baseUrl: 'localhost:8103', fetch })).toThrow('Not a valid URL');
  });
  it('uses the global fetch by default, called on globalThis', async () => {
    const receivers: unknown[] = [];
    vi.stubGlobal('fetch', function (this: unknown) {
      receivers.push(this);
      return Promise.resolve({ ok: true, status: 200, json: async () => ({ context: [] }) });
    });
    await new FhircastClient({ baseUrl: 'http://h' }).getCurrentContext('t');
    expect(receivers).toEqual([globalThis]);
  });
  it('sends the bearer token when there is one', async () => {
    const { fetch, calls } = fakeFetch([{ body: { context: [] } }, { body: { context: [] } }]);
    let token: string | undefined = 'abc';
    const client = new FhircastClient({ baseUrl: 'http://h', fetch, getAccessToken: async () => token });
    await client.getCurrentContext('t');
    token = undefined;
    await client.getCurrentContext('t');
    expect(calls[0].headers.Authorization).toBe('Bearer abc');
    expect(calls[1].headers.Authorization).toBeUndefined();
  });
});

describe('FhircastClient.subscribe', () => {
  it('posts the form and answers the endpoint the hub gives', async () => {
    const { fetch, calls } = fakeFetch([{ status: 202, body: { 'hub.channel.endpoint': 'ws://h/ws/fhircast/x' } }]);
    const client = new FhircastClient({ baseUrl: 'http://h/', fetch });
    await expect(client.subscribe('topic 1', ['Patient-open', 'patient-close'])).resolves.toBe('ws://h/ws/fhircast/x');
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('http://h/fhircast/STU3');
    expect(calls[0].method).toBe('POST');
    expect(calls[0].headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(calls[0].body))).toEqual({
      'hub.channel.type': 'websocket',
      'hub.mode': 'subscribe',
      'hub.topic': 'topic 1',
      'hub.events': 'Patient-open,Patient-close',
    });
  });
  it("throws 'Invalid response!' when the hub gives no endpoint", async () => {
    for (const body of [{}, { 'hub.channel.endpoint': '' }, { 'hub.channel.endpoint': 5 }, undefined]) {
      const { fetch } = fakeFetch([{ body }]);
      await expect(new FhircastClient({ baseUrl: 'http://h', fetch }).subscribe('t', ['Patient-open'])).rejects.toThrow(
        'Invalid response!',
      );
    }
  });
  it('sends nothing for an invalid topic or events', async () => {
    const { fetch, calls } = fakeFetch([]);
    const client = new FhircastClient({ baseUrl: 'http://h', fetch });
    await expect(client.subscribe('', ['Patient-open'])).rejects.toThrow('FHIRcast topic must be a non-empty string');
    await expect(client.subscribe('t', [])).rejects.toThrow('FHIRcast events must be a non-empty array');
    await expect(client.subscribe('t', ['Chart-open'])).rejects.toThrow('Unknown FHIRcast event: Chart-open');
    expect(calls).toHaveLength(0);
  });
  it('reports the hub error with its outcome', async () => {
    const outcome = {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'login', details: { text: 'Unauthorized' } }],
    };
    const { fetch } = fakeFetch([{ status: 401, body: outcome }]);
    const error = await new FhircastClient({ baseUrl: 'http://h', fetch })
      .subscribe('t', ['Patient-open'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FhircastHubError);
    expect((error as FhircastHubError).message).toBe('FHIRcast hub answered 401: Unauthorized');
    expect((error as FhircastHubError).status).toBe(401);
    expect((error as FhircastHubError).outcome).toEqual(outcome);
  });
  it('reports a hub error without a body', async () => {
    const { fetch } = fakeFetch([{ status: 502 }]);
    await expect(new FhircastClient({ baseUrl: 'http://h', fetch }).subscribe('t', ['Patient-open'])).rejects.toThrow(
      /^FHIRcast hub answered 502$/,
    );
  });
});

describe('FhircastClient.unsubscribe', () => {
  it('posts mode unsubscribe with the endpoint', async () => {
    const { fetch, calls } = fakeFetch([{ body: {} }]);
    await new FhircastClient({ baseUrl: 'http://h', fetch }).unsubscribe({
      topic: 't',
      events: ['Patient-open'],
      endpoint: 'ws://h/ws/fhircast/x',
    });
    expect(Object.fromEntries(new URLSearchParams(calls[0].body))).toEqual({
      'hub.channel.type': 'websocket',
      'hub.mode': 'unsubscribe',
      'hub.topic': 't',
      'hub.events': 'Patient-open',
      'hub.channel.endpoint': 'ws://h/ws/fhircast/x',
    });
  });
  it('refuses an endpoint that is not a websocket', async () => {
    const { fetch, calls } = fakeFetch([]);
    await expect(
      new FhircastClient({ baseUrl: 'http://h', fetch }).unsubscribe({
        topic: 't',
        events: ['Patient-open'],
        endpoint: 'http://h/x',
      }),
    ).rejects.toThrow("Invalid FHIRcast endpoint 'http://h/x'");
    expect(calls).toHaveLength(0);
  });
});

describe('FhircastClient.publish', () => {
  it('posts the event envelope as JSON to the topic', async () => {
    const { fetch, calls } = fakeFetch([{ body: { success: true } }]);
    const envelope = await new FhircastClient({ baseUrl: 'http://h', fetch }).publish(
      'my topic',
      'patient-open',
      patientContext,
    );
    expect(calls[0].url).toBe('http://h/fhircast/STU3/my%20topic');
    expect(calls[0].method).toBe('POST');
    expect(calls[0].headers['Content-Type']).toBe('application/json');
    const sent = JSON.parse(calls[0].body ?? '');
    expect(sent).toEqual(envelope);
    expect(sent.event).toEqual({ 'hub.topic': 'my topic', 'hub.event': 'Patient-open', context: patientContext });
    expect(typeof sent.id).toBe('string');
    expect(Number.isNaN(Date.parse(sent.timestamp))).toBe(false);
  });
  it('sends context.versionId for DiagnosticReport-update and refuses the event without it', async () => {
    const context = [
      { key: 'report', resource: { resourceType: 'DiagnosticReport' as const, id: 'r1' } },
      { key: 'updates', resource: { resourceType: 'Bundle' as const, id: 'b1' } },
    ];
    const { fetch, calls } = fakeFetch([{ body: {} }]);
    const client = new FhircastClient({ baseUrl: 'http://h', fetch });
    await expect(client.publish('t', 'DiagnosticReport-update', context)).rejects.toThrow(
      'DiagnosticReport-update needs context.versionId',
    );
    expect(calls).toHaveLength(0);
    await client.publish('t', 'DiagnosticReport-update', context, 'v3');
    expect(JSON.parse(calls[0].body ?? '').event['context.versionId']).toBe('v3');
  });
  it('sends nothing for an invalid topic, event or context', async () => {
    const { fetch, calls } = fakeFetch([]);
    const client = new FhircastClient({ baseUrl: 'http://h', fetch });
    await expect(client.publish('', 'Patient-open', patientContext)).rejects.toThrow('topic');
    await expect(client.publish('t', 'Chart-open', patientContext)).rejects.toThrow(
      'Unknown FHIRcast event: Chart-open',
    );
    await expect(client.publish('t', 'Patient-open', [])).rejects.toThrow("Patient-open needs context 'patient'");
    expect(calls).toHaveLength(0);
  });
});

describe('FhircastClient.getCurrentContext', () => {
  it('reads the topic and answers its context', async () => {
    const current = { 'context.type': 'Patient-open', 'context.versionId': 'v1', context: patientContext };
    const { fetch, calls } = fakeFetch([{ body: current }]);
    await expect(new FhircastClient({ baseUrl: 'http://h', fetch }).getCurrentContext('t/1')).resolves.toEqual(current);
    expect(calls[0]).toMatchObject({ url: 'http://h/fhircast/STU3/t%2F1', method: 'GET' });
    expect(calls[0].body).toBeUndefined();
  });
  it("throws 'Invalid response!' for an answer without a context list", async () => {
    const { fetch } = fakeFetch([{ body: { context: 'none' } }]);
    await expect(new FhircastClient({ baseUrl: 'http://h', fetch }).getCurrentContext('t')).rejects.toThrow(
      'Invalid response!',
    );
  });
  it('refuses an empty topic', async () => {
    const { fetch } = fakeFetch([]);
    await expect(new FhircastClient({ baseUrl: 'http://h', fetch }).getCurrentContext(' ')).rejects.toThrow(
      'FHIRcast topic must be a non-empty string',
    );
  });
});
