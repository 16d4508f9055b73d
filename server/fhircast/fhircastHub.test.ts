import WebSocket from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import { FhircastClient, FhircastHubError } from '../../data-provider/fhircast';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { baseUrl, issueExpressions, issueText } from '../../tests/integration/fhirClient';

/* eslint-disable @typescript-eslint/no-explicit-any -- hub answers of many shapes */

/** The FHIRcast hub over real HTTP and real websockets, also driven by the app's own FhircastClient. */
describe('FHIRcast hub', () => {
  let token: string;
  let client: FhircastClient;

  const hub = (path = '') => new URL(`fhircast/STU3${path}`, baseUrl()).toString();

  async function form(fields: Record<string, string>, bearer: string | null = token) {
    const response = await fetch(hub(), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  async function publish(topic: string, body: unknown, bearer = token) {
    const response = await fetch(hub(`/${encodeURIComponent(topic)}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  async function context(topic: string, bearer = token) {
    const response = await fetch(hub(`/${encodeURIComponent(topic)}`), {
      headers: { authorization: `Bearer ${bearer}` },
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  /** Opens the endpoint and collects messages; `next()` waits for the next one. */
  async function connect(endpoint: string) {
    const socket = new WebSocket(endpoint);
    const queue: any[] = [];
    const waiting: ((message: any) => void)[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else queue.push(message);
    });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const next = (): Promise<any> =>
      queue.length > 0
        ? Promise.resolve(queue.shift())
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error('no FHIRcast message within 5 s')), 5000);
            waiting.push((message) => {
              clearTimeout(timer);
              resolve(message);
            });
          });
    return { socket, next, closed, queue };
  }

  const patientOpen = (topic: string, patientId = 'p1') => ({
    timestamp: new Date().toISOString(),
    id: `event-${Math.random()}`,
    event: {
      'hub.topic': topic,
      'hub.event': 'Patient-open',
      context: [{ key: 'patient', resource: { resourceType: 'Patient', id: patientId } }],
    },
  });

  beforeAll(async () => {
    token = (await registerProjectOwner('FHIRcast Clinic')).tokens.access_token;
    client = new FhircastClient({ baseUrl: baseUrl(), getAccessToken: () => token });
  });

  it('refuses callers who are not signed in', async () => {
    expect((await form({ 'hub.mode': 'subscribe' }, null)).status).toBe(401);
    const response = await fetch(hub('/some-topic'));
    expect(response.status).toBe(401);
  });

  it('subscribes over a websocket, delivers the subscribed events of the topic and keeps its context', async () => {
    const topic = `topic-${Math.random().toString(36).slice(2)}`;
    const subscribed = await form({
      'hub.channel.type': 'websocket',
      'hub.mode': 'subscribe',
      'hub.topic': topic,
      'hub.events': 'patient-open,Patient-close',
    });
    expect(subscribed.status).toBe(202);
    const endpoint = subscribed.body['hub.channel.endpoint'] as string;
    expect(endpoint).toMatch(new RegExp(`^${baseUrl().replace(/^http/, 'ws')}ws/fhircast/[0-9a-f-]{36}$`));
    const listener = await connect(endpoint);
    expect(await listener.next()).toMatchObject({
      'hub.mode': 'subscribe',
      'hub.topic': topic,
      'hub.events': 'Patient-open,Patient-close',
    });

    const opened = await publish(topic, patientOpen(topic, 'p42'));
    expect(opened.status).toBe(202);
    const delivered = await listener.next();
    expect(delivered.event['hub.event']).toBe('Patient-open');
    expect(delivered.event.context).toEqual([{ key: 'patient', resource: { resourceType: 'Patient', id: 'p42' } }]);

    const current = await context(topic);
    expect(current.status).toBe(200);
    expect(current.body['context.type']).toBe('Patient');
    expect(current.body['context.versionId']).toBe(opened.body['context.versionId']);
    expect(current.body.context[0].resource.id).toBe('p42');

    // Not subscribed to ImagingStudy-open: the next message is the close.
    const study = {
      event: {
        'hub.event': 'ImagingStudy-open',
        context: [{ key: 'study', resource: { resourceType: 'ImagingStudy', id: 's1' } }],
      },
    };
    expect((await publish(topic, study)).status).toBe(202);
    expect((await context(topic)).body['context.type']).toBe('ImagingStudy');
    const close = { event: { ...patientOpen(topic, 'p42').event, 'hub.event': 'Patient-close' } };
    expect((await publish(topic, close)).status).toBe(202);
    expect((await listener.next()).event['hub.event']).toBe('Patient-close');
    // Closing a patient while a study is open leaves the study open.
    expect((await context(topic)).body['context.type']).toBe('ImagingStudy');

    const unsubscribed = await form({
      'hub.channel.type': 'websocket',
      'hub.mode': 'unsubscribe',
      'hub.topic': topic,
      'hub.events': 'Patient-open',
      'hub.channel.endpoint': endpoint,
    });
    expect(unsubscribed.status).toBe(202);
    expect(await listener.closed).toBe(1000);
    const again = await connect(endpoint);
    expect(await again.closed).toBe(4404);
  });

  it('answers invalid subscriptions and events with 400 and the reason', async () => {
    const restHook = await form({
      'hub.channel.type': 'rest-hook',
      'hub.mode': 'subscribe',
      'hub.topic': 't',
      'hub.events': 'Patient-open',
    });
    expect(restHook.status).toBe(400);
    expect(issueText(restHook.body)).toBe("Unsupported FHIRcast channel type 'rest-hook': only websocket is supported");
    const unknownEvent = await form({
      'hub.channel.type': 'websocket',
      'hub.mode': 'subscribe',
      'hub.topic': 't',
      'hub.events': 'Patient-explode',
    });
    expect(issueText(unknownEvent.body)).toBe('Unknown FHIRcast event: Patient-explode');
    const strangerEndpoint = await form({
      'hub.channel.type': 'websocket',
      'hub.mode': 'unsubscribe',
      'hub.topic': 't',
      'hub.events': 'Patient-open',
      'hub.channel.endpoint': 'ws://elsewhere.example/ws/fhircast/x',
    });
    expect(strangerEndpoint.status).toBe(400);

    const topic = 'invalid-events';
    const noPatient = await publish(topic, { event: { 'hub.event': 'Patient-open', context: [] } });
    expect(noPatient.status).toBe(400);
    expect(issueText(noPatient.body)).toBe("Patient-open needs context 'patient' (a Patient)");
    expect(issueExpressions(noPatient.body)).toEqual(['event.context']);
    const wrongType = await publish(topic, {
      event: {
        'hub.event': 'Patient-open',
        context: [{ key: 'patient', resource: { resourceType: 'Encounter', id: 'e' } }],
      },
    });
    expect(issueText(wrongType.body)).toBe("Context 'patient' of Patient-open must be a Patient, not a Encounter");
    const otherTopic = await publish(topic, patientOpen('another-topic'));
    expect(otherTopic.status).toBe(400);
    expect(issueExpressions(otherTopic.body)).toEqual(['event.hub.topic']);
    const report = [
      { key: 'report', resource: { resourceType: 'DiagnosticReport', id: 'r1' } },
      { key: 'patient', resource: { resourceType: 'Patient', id: 'p1' } },
      { key: 'updates', resource: { resourceType: 'Bundle', id: 'b1' } },
    ];
    const noVersion = await publish(topic, { event: { 'hub.event': 'DiagnosticReport-update', context: report } });
    expect(issueText(noVersion.body)).toBe('DiagnosticReport-update needs context.versionId');
    const notOpen = await publish(topic, {
      event: { 'hub.event': 'DiagnosticReport-update', context: report, 'context.versionId': 'v1' },
    });
    expect(notOpen.status).toBe(400);
    expect(issueText(notOpen.body)).toMatch(/No DiagnosticReport is open/);
    expect((await publish(topic, 'not an envelope')).status).toBe(400);
    // Nothing invalid changed the topic's context.
    expect((await context(topic)).body).toEqual({ context: [] });
  });

  it("keeps each project's topics apart", async () => {
    const topic = 'shared-name';
    expect((await publish(topic, patientOpen(topic, 'mine'))).status).toBe(202);
    const other = (await registerProjectOwner('Other FHIRcast Clinic')).tokens.access_token;
    expect((await context(topic, other)).body).toEqual({ context: [] });
    expect((await context(topic)).body.context[0].resource.id).toBe('mine');
  });

  it("works with the app's FhircastClient: subscribe, publish, current context, unsubscribe", async () => {
    const topic = `client-${Math.random().toString(36).slice(2)}`;
    const endpoint = await client.subscribe(topic, ['Patient-open']);
    const listener = await connect(endpoint);
    await listener.next();
    await client.publish(topic, 'Patient-open', [{ key: 'patient', resource: { resourceType: 'Patient', id: 'c1' } }]);
    expect((await listener.next()).event.context[0].resource.id).toBe('c1');
    const current = await client.getCurrentContext(topic);
    expect(current['context.type']).toBe('Patient');
    await client.unsubscribe({ topic, events: ['Patient-open'], endpoint });
    expect(await listener.closed).toBe(1000);
    await expect(
      client.unsubscribe({ topic, events: ['Patient-open'], endpoint: 'ws://localhost/ws/fhircast/none' }),
    ).rejects.toBeInstanceOf(FhircastHubError);
  });
});
