import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { registerProjectOwner, registerUser, signInWithScope, uniqueEmail } from '../../tests/integration/accounts';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { pkcePair, signIn } from '../../tests/integration/signIn';
import { fhircastSubscribe } from './fhircastHubClient.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- hub answers of many shapes */

/**
 * Attacks on the FHIRcast hub by members of the same project (security review of server/fhircast):
 * a patient of the portal, a member whose sign-in ended, an app with narrower SMART scopes.
 */
describe('FHIRcast hub under attack', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let ownerToken: string;

  const hub = (path = '') => new URL(`fhircast/STU3${path}`, baseUrl()).toString();

  async function subscribe(topic: string, events: string, bearer: string) {
    const answer = await fhircastSubscribe(baseUrl(), topic, events, bearer);
    expect(answer.status).toBe(202);
    return answer.body['hub.channel.endpoint'] as string;
  }

  async function publish(topic: string, event: string, context: unknown[], bearer: string) {
    const response = await fetch(hub(`/${encodeURIComponent(topic)}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ event: { 'hub.topic': topic, 'hub.event': event, context } }),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  async function currentContext(topic: string, bearer: string) {
    const response = await fetch(hub(`/${encodeURIComponent(topic)}`), {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as any;
  }

  /** Opens an endpoint; resolves once the hub's confirmation arrived (or the socket closed). */
  async function listen(endpoint: string) {
    const socket = new WebSocket(endpoint);
    const events: any[] = [];
    let confirm: (confirmed: boolean) => void = () => undefined;
    const confirmed = new Promise<boolean>((resolve) => (confirm = resolve));
    const closed = new Promise<number>((resolve) =>
      socket.on('close', (code) => {
        confirm(false);
        resolve(code);
      }),
    );
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message['hub.mode']) confirm(true);
      else events.push(message);
    });
    const eventNamed = async (name: string, ms = 5000) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        const found = events.find((event) => event.event?.['hub.event'] === name);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no ${name} event within ${ms} ms`);
    };
    return { socket, events, confirmed, closed, eventNamed };
  }

  /** Resolves with the close code, or undefined if the socket is still open after `ms`. */
  const closedWithin = (closed: Promise<number>, ms: number) =>
    Promise.race([closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);

  const patientContext = (patientId: string) => [
    { key: 'patient', resource: { resourceType: 'Patient', id: patientId } },
  ];

  async function patient(family: string): Promise<string> {
    const created = await http<any>('POST', 'fhir/R4/Patient', {
      token: ownerToken,
      body: { resourceType: 'Patient', name: [{ family }] },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  /** A member of the owner's project (profile, optional policy), signed in; the super admin adds it. */
  async function member(profile: string, accessPolicy?: string) {
    const email = uniqueEmail('cast-attack');
    const password = 'member password 1';
    await registerUser(email, password, pkcePair().challenge);
    const user = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
    const membership = await http<any>('POST', 'fhir/R4/ProjectMembership', {
      token: inject('adminToken'),
      body: {
        resourceType: 'ProjectMembership',
        project: { reference: `Project/${owner.projectId}` },
        user: { reference: `User/${user.body.entry[0].resource.id}` },
        profile: { reference: profile },
        ...(accessPolicy ? { accessPolicy: { reference: `AccessPolicy/${accessPolicy}` } } : {}),
      },
    });
    expect(membership.status).toBe(201);
    const token = (await signIn(baseUrl(), email, password)).access_token;
    return { email, password, token, membership: membership.body };
  }

  async function practitionerMember() {
    const practitioner = await http<any>('POST', 'fhir/R4/Practitioner', {
      token: ownerToken,
      body: { resourceType: 'Practitioner', name: [{ family: 'Caster' }] },
    });
    return member(`Practitioner/${practitioner.body.id}`);
  }

  beforeAll(async () => {
    owner = await registerProjectOwner('FHIRcast Attack Clinic');
    ownerToken = owner.tokens.access_token;
  });

  it("keeps a patient of the project out of a clinician's topic: no context, no events, no driving it", async () => {
    const topic = `ward-${randomUUID()}`;
    const chartOpen = await patient('Charted');
    const ownPatient = await patient('Portal');
    // A patient of the portal: a membership whose profile is a Patient (the project's default patient policy).
    const portal = await member(`Patient/${ownPatient}`);

    const clinician = await listen(await subscribe(topic, 'Patient-open,userLogout', ownerToken));
    expect(await clinician.confirmed).toBe(true);
    expect((await publish(topic, 'Patient-open', patientContext(chartOpen), ownerToken)).status).toBe(202);
    await clinician.eventNamed('Patient-open');

    // Reading the clinician's session: the patient's own topic of that name is empty.
    expect(await currentContext(topic, portal.token)).toEqual({ context: [] });
    // Following it: nothing of the clinician's events arrives.
    const eavesdropper = await listen(await subscribe(topic, 'Patient-open', portal.token));
    expect(await eavesdropper.confirmed).toBe(true);
    const second = await patient('Second');
    expect((await publish(topic, 'Patient-open', patientContext(second), ownerToken)).status).toBe(202);
    await clinician.eventNamed('Patient-open');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(eavesdropper.events).toEqual([]);

    // Driving it: the patient's own events (opening their own record, logging out) stay in their topic.
    expect((await publish(topic, 'Patient-open', patientContext(ownPatient), portal.token)).status).toBe(202);
    expect((await publish(topic, 'userLogout', [], portal.token)).status).toBe(202);
    expect((await eavesdropper.eventNamed('Patient-open')).event.context[0].resource.id).toBe(ownPatient);
    expect((await currentContext(topic, ownerToken)).context[0].resource.id).toBe(second);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(clinician.events.map((event) => event.event.context[0]?.resource.id)).toEqual([chartOpen, second]);
    clinician.socket.close();
    eavesdropper.socket.close();
  });

  it('closes an endpoint whose id is not percent-encoded text (4404), and keeps serving (no crash)', async () => {
    // No sign-in needed to try: the endpoint URL is the only key.
    const broken = await listen(baseUrl().replace(/^http/, 'ws') + 'ws/fhircast/%E0%A4%A');
    expect(await broken.closed).toBe(4404);
    expect((await http('GET', 'fhir/R4/metadata', { token: null })).status).toBe(200);
  });

  it('ends a socket that sends a frame breaking the protocol, and keeps serving (no crash)', async () => {
    const topic = `frames-${randomUUID()}`;
    const listener = await listen(await subscribe(topic, 'Patient-open', ownerToken));
    expect(await listener.confirmed).toBe(true);
    // A frame with a reserved opcode (3), masked and empty, written under the ws client's framing.
    const raw = (listener.socket as unknown as { _socket: { write(data: Buffer): void } })._socket;
    raw.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4]));
    expect(await closedWithin(listener.closed, 5000)).toBeDefined();
    expect((await http('GET', 'fhir/R4/metadata', { token: null })).status).toBe(200);
    // The hub still works for everyone else.
    const other = await listen(await subscribe(topic, 'Patient-open', ownerToken));
    expect(await other.confirmed).toBe(true);
    expect((await publish(topic, 'Patient-open', patientContext(await patient('Framed')), ownerToken)).status).toBe(
      202,
    );
    await other.eventNamed('Patient-open');
    other.socket.close();
  });

  it('answers bodies it cannot walk with 400 naming the problem, never 500', async () => {
    const list = await fetch(hub(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ownerToken}` },
      body: '[["hub.mode", "subscribe", "extra"]]',
    });
    expect(list.status).toBe(400);
    expect(issueText(await list.json())).toBe('The body must be a form or an event envelope');

    const topic = `bundle-${randomUUID()}`;
    const report = { key: 'report', resource: { resourceType: 'DiagnosticReport', id: 'r1' } };
    const opened = await publish(
      topic,
      'DiagnosticReport-open',
      [report, { key: 'patient', resource: { resourceType: 'Patient', id: 'p1' } }],
      ownerToken,
    );
    expect(opened.status).toBe(202);
    const update = (entry: unknown) =>
      fetch(hub(`/${topic}`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ownerToken}` },
        body: JSON.stringify({
          event: {
            'hub.event': 'DiagnosticReport-update',
            'context.versionId': opened.body['context.versionId'],
            context: [report, { key: 'updates', resource: { resourceType: 'Bundle', id: 'b1', entry } }],
          },
        }),
      });
    for (const [entry, text, path] of [
      [5, 'Bundle.entry must be an array', 'event.context[1].resource.entry'],
      [[null], 'A Bundle entry must be an object', 'event.context[1].resource.entry[0]'],
      [
        [{ resource: 7 }],
        'A Bundle entry resource must be an object with a resourceType',
        'event.context[1].resource.entry[0].resource',
      ],
    ] as const) {
      const answer = await update(entry);
      expect(answer.status).toBe(400);
      const body = await answer.json();
      expect(issueText(body)).toBe(text);
      expect(issueExpressions(body)).toEqual([path]);
    }
    const valid = await update([{ resource: { resourceType: 'Observation', status: 'final' } }]);
    expect(valid.status).toBe(202);
  });

  it('refuses an event whose context names a record the publisher may not read', async () => {
    const topic = `inject-${randomUUID()}`;
    const ownPatient = await patient('Own');
    const otherPatient = await patient('Other');
    const portal = await member(`Patient/${ownPatient}`);
    const refused = await publish(topic, 'Patient-open', patientContext(otherPatient), portal.token);
    expect(refused.status).toBe(403);
    expect(issueText(refused.body)).toBe('Forbidden: the context names a resource you may not read');
    const foreign = await registerProjectOwner('Another FHIRcast Clinic');
    const foreignPatient = await http<any>('POST', 'fhir/R4/Patient', {
      token: foreign.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Foreign' }] },
    });
    expect((await publish(topic, 'Patient-open', patientContext(foreignPatient.body.id), portal.token)).status).toBe(
      403,
    );
    expect(await currentContext(topic, portal.token)).toEqual({ context: [] });
    expect((await publish(topic, 'Patient-open', patientContext(ownPatient), portal.token)).status).toBe(202);
  });

  it('closes a FHIRcast socket when its sign-in is revoked, and does not open it again', async () => {
    const topic = `logout-${randomUUID()}`;
    const clinician = await practitionerMember();
    const endpoint = await subscribe(topic, 'Patient-open', clinician.token);
    const listener = await listen(endpoint);
    expect(await listener.confirmed).toBe(true);

    expect((await http('POST', 'oauth2/logout', { token: clinician.token })).status).toBeLessThan(300);
    expect(await closedWithin(listener.closed, 5000)).toBe(4401);
    // Another sign-in of the same person publishes: the old endpoint hears nothing, and stays shut.
    const again = (await signIn(baseUrl(), clinician.email, clinician.password)).access_token;
    expect((await publish(topic, 'Patient-open', patientContext(await patient('After')), again)).status).toBe(202);
    expect(listener.events).toEqual([]);
    const reopened = await listen(endpoint);
    expect(await reopened.closed).toBe(4401);
    expect(reopened.events).toEqual([]);
  });

  it('closes a FHIRcast socket when its membership is switched off', async () => {
    const topic = `inactive-${randomUUID()}`;
    const clinician = await practitionerMember();
    const listener = await listen(await subscribe(topic, 'Patient-open', clinician.token));
    expect(await listener.confirmed).toBe(true);
    const off = await http('PUT', `fhir/R4/ProjectMembership/${clinician.membership.id}`, {
      token: inject('adminToken'),
      body: { ...clinician.membership, active: false },
    });
    expect(off.status).toBe(200);
    expect(await closedWithin(listener.closed, 5000)).toBe(4401);
  });

  it("gives an app with narrower SMART scopes nothing of its user's session it may not read", async () => {
    const topic = `scoped-${randomUUID()}`;
    const clinician = await practitionerMember();
    // The same person through a third-party app that may read Observations only.
    const app = await signInWithScope(clinician.email, clinician.password, 'openid user/Observation.rs');
    const appListener = await listen(await subscribe(topic, 'Patient-open,userLogout', app.access_token));
    expect(await appListener.confirmed).toBe(true);
    const ehrListener = await listen(await subscribe(topic, 'Patient-open,userLogout', clinician.token));
    expect(await ehrListener.confirmed).toBe(true);

    const opened = await patient('Scoped');
    expect((await publish(topic, 'Patient-open', patientContext(opened), clinician.token)).status).toBe(202);
    expect((await ehrListener.eventNamed('Patient-open')).event.context[0].resource.id).toBe(opened);
    // Events without records still reach the app: it follows the session, not its contents.
    expect((await publish(topic, 'userLogout', [], clinician.token)).status).toBe(202);
    await appListener.eventNamed('userLogout');
    expect(appListener.events.map((event) => event.event['hub.event'])).toEqual(['userLogout']);
    expect(await currentContext(topic, app.access_token)).toEqual({ context: [] });
    expect((await currentContext(topic, clinician.token)).context[0].resource.id).toBe(opened);
    // Nor may the app open a patient in the session.
    expect((await publish(topic, 'Patient-open', patientContext(opened), app.access_token)).status).toBe(403);
    appListener.socket.close();
    ehrListener.socket.close();
  });
});
