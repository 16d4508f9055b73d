import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { registerPatient } from '../../tests/integration/patientAccounts';
import { memberUnderPolicy } from '../../tests/integration/policyMember';
import { SocketTestClient } from '../realtime/socketTestClient.test-support';
import { frontDeskPolicy } from './frontDeskPolicy';
import { patientPortalPolicy } from './patientPortalPolicy';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** The Subscription the chat makes (data-provider/realtime websocketSubscription). */
const liveChat = (criteria: string) => ({
  resourceType: 'Subscription',
  status: 'active',
  reason: `Realtime updates over websocket for ${criteria}`,
  criteria,
  channel: { type: 'websocket' },
});

describe('the demo front desk policy and the staff chat', () => {
  let ownerToken: string;
  let frontDesk: string;
  let patient: Awaited<ReturnType<typeof registerPatient>>;
  const sockets: SocketTestClient[] = [];

  const as = (token: string) => ({
    get: (path: string) => http<any>('GET', `fhir/R4/${path}`, { token }),
    post: (path: string, body: unknown) => http<any>('POST', `fhir/R4/${path}`, { token, body }),
    put: (path: string, body: unknown) => http<any>('PUT', `fhir/R4/${path}`, { token, body }),
    delete: (path: string) => http<any>('DELETE', `fhir/R4/${path}`, { token }),
  });

  beforeAll(async () => {
    const owner = await registerProjectOwner('Front Desk Clinic');
    ownerToken = owner.tokens.access_token;
    // Patients under the seed's portal policy, as in the demo: the message below is the portal's.
    const portal = await as(ownerToken).post('AccessPolicy', patientPortalPolicy);
    const project = await as(ownerToken).get(`Project/${owner.projectId}`);
    await as(ownerToken).put(`Project/${owner.projectId}`, {
      ...project.body,
      defaultPatientAccessPolicy: { reference: `AccessPolicy/${portal.body.id}` },
    });
    patient = await registerPatient(owner.projectId);
    frontDesk = (await memberUnderPolicy(owner.projectId, ownerToken, { resource: frontDeskPolicy.resource })).token;
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
  });

  it('registers a new patient with an MRN, then keeps the MRN as it is, and deletes no chart', async () => {
    const mrn = {
      type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] },
      system: 'urn:oid:1.2.3.4',
      value: 'MRN-BEN-1',
    };
    const made = await as(frontDesk).post('Patient', {
      resourceType: 'Patient',
      name: [{ given: ['Rosa'], family: 'Ibarra' }],
      birthDate: '1985-06-15',
      gender: 'female',
      identifier: [mrn],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.identifier[0].value).toBe('MRN-BEN-1');
    // Contact details are the desk's to keep up to date.
    const moved = await as(frontDesk).put(`Patient/${made.body.id}`, {
      ...made.body,
      telecom: [{ system: 'phone', value: '555-0100' }],
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const refiled = await as(frontDesk).put(`Patient/${made.body.id}`, {
      ...moved.body,
      identifier: [{ ...mrn, value: 'MRN-OTHER' }],
    });
    expect(refiled.status).toBe(403);
    expect(JSON.stringify(refiled.body)).toContain('Patient.identifier');
    expect((await as(frontDesk).delete(`Patient/${made.body.id}`)).status).toBe(403);
    const stored = await as(ownerToken).get(`Patient/${made.body.id}`);
    expect(stored.body.identifier[0].value).toBe('MRN-BEN-1');
    expect(stored.body.telecom[0].value).toBe('555-0100');
  });

  it('keeps the chat with a patient live: the patient’s next message reaches front desk’s socket', async () => {
    // The criteria the staff chat watches (custom-screens/chat/chatMessages.ts conversationCriteria).
    const created = await as(frontDesk).post('Subscription', liveChat(`Communication?subject=${patient.patient}`));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const binding = await as(frontDesk).get(`Subscription/${created.body.id}/$get-ws-binding-token`);
    expect(binding.status).toBe(200);
    const socket = await SocketTestClient.open(`${baseUrl().replace(/^http/, 'ws')}ws/subscriptions-r4`);
    sockets.push(socket);
    await socket.bind(binding.body.parameter.find((p: any) => p.name === 'token').valueString, created.body.id);

    const sent = await as(patient.token).post('Communication', {
      resourceType: 'Communication',
      status: 'in-progress',
      sender: { reference: patient.patient },
      subject: { reference: patient.patient },
      recipient: [{ reference: patient.patient }],
      sent: new Date().toISOString(),
      payload: [{ contentString: 'Can I move my appointment?' }],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(JSON.stringify(await socket.notification(created.body.id))).toContain(sent.body.id);
  });

  it('allows no other Subscription: other criteria, a rest-hook, another member’s', async () => {
    for (const criteria of [
      `Task?owner=${patient.patient}`,
      `Patient?_id=${patient.patient.split('/')[1]}`,
      'Communication?status=in-progress',
      'CommunicationRequest?subject=Patient/x',
    ]) {
      const refused = await as(frontDesk).post('Subscription', liveChat(criteria));
      expect(refused.status, criteria).toBe(403);
    }
    const bot = await as(ownerToken).post('Bot', { resourceType: 'Bot', name: 'Clinic bot' });
    expect(bot.status).toBe(201);
    const restHook = await as(frontDesk).post('Subscription', {
      ...liveChat(`Communication?subject=${patient.patient}`),
      channel: { type: 'rest-hook', endpoint: `Bot/${bot.body.id}` },
    });
    expect(restHook.status).toBe(403);

    // The clinician's own live chat on the same conversation is not front desk's to read, bind or end.
    const clinicians = await as(ownerToken).post('Subscription', liveChat(`Communication?subject=${patient.patient}`));
    expect(clinicians.status).toBe(201);
    const theirs = `Subscription/${clinicians.body.id}`;
    expect([403, 404]).toContain((await as(frontDesk).get(theirs)).status);
    expect([403, 404]).toContain((await as(frontDesk).get(`${theirs}/$get-ws-binding-token`)).status);
    expect([403, 404]).toContain((await as(frontDesk).delete(theirs)).status);
    expect((await as(ownerToken).get(theirs)).status).toBe(200);
  });
});
