import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { registerPatient } from '../../tests/integration/patientAccounts';
import { SocketTestClient } from '../realtime/socketTestClient.test-support';
import { patientPortalPolicy } from './patientPortalPolicy';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

const chatSubscription = (criteria: string) => ({
  resourceType: 'Subscription',
  status: 'active',
  reason: 'Live chat',
  criteria,
  channel: { type: 'websocket' },
});

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/** A catalogue entry, as imported records (Synthea's) and other systems point at one. */
const medication = (code: string, display: string) => ({
  resourceType: 'Medication',
  status: 'active',
  code: { coding: [{ system: RXNORM, code, display }], text: display },
});

/** An order that names its drug only through a Medication reference. */
const orderFor = (patient: string, medicationId: string) => ({
  resourceType: 'MedicationRequest',
  status: 'active',
  intent: 'order',
  subject: { reference: patient },
  medicationReference: { reference: `Medication/${medicationId}` },
});

const ids = (bundle: any): string[] =>
  (bundle.entry ?? []).map((e: any) => `${e.resource.resourceType}/${e.resource.id}`);

describe('the demo patient portal policy', () => {
  let alice: Awaited<ReturnType<typeof registerPatient>>;
  let bob: Awaited<ReturnType<typeof registerPatient>>;
  let ownerToken: string;
  /** Alice's drug, Bob's drug (a different one), and one of another clinic. */
  const drugs = { alice: '', bob: '', elsewhere: '' };
  const orders = { alice: '', bob: '' };

  beforeAll(async () => {
    const owner = await registerProjectOwner('Portal Policy Clinic');
    const token = owner.tokens.access_token;
    ownerToken = token;
    const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', { token, body: patientPortalPolicy });
    expect(policy.status).toBe(201);
    const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`, { token });
    await http('PUT', `fhir/R4/Project/${owner.projectId}`, {
      token,
      body: { ...project.body, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.body.id}` } },
    });
    alice = await registerPatient(owner.projectId);
    bob = await registerPatient(owner.projectId);

    const create = async (body: unknown, as = token) => {
      const created = await http<any>('POST', `fhir/R4/${(body as { resourceType: string }).resourceType}`, {
        token: as,
        body,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };
    drugs.alice = await create(medication('197361', 'Amlodipine 5 MG Oral Tablet'));
    drugs.bob = await create(medication('1049630', 'diphenhydrAMINE Hydrochloride 25 MG Oral Tablet'));
    orders.alice = await create(orderFor(alice.patient, drugs.alice));
    orders.bob = await create(orderFor(bob.patient, drugs.bob));
    const otherClinic = await registerProjectOwner('Another Clinic');
    drugs.elsewhere = await create(
      medication('311372', 'Loratadine 10 MG Oral Tablet'),
      otherClinic.tokens.access_token,
    );
  });

  it('lets a patient watch their own conversation, as the portal does', async () => {
    const created = await http<any>('POST', 'fhir/R4/Subscription', {
      token: alice.token,
      body: chatSubscription(`Communication?subject=${alice.patient}`),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await http<any>('GET', `fhir/R4/Subscription/${created.body.id}`, { token: alice.token });
    expect(read.status).toBe(200);
  });

  it("refuses criteria that only start with the patient's own (another patient's messages added)", async () => {
    // A string search matches a prefix: without :exact this Subscription was allowed.
    for (const criteria of [
      `Communication?subject=${alice.patient},${bob.patient}`,
      `Communication?subject=${alice.patient}&_has:Communication:part-of:subject=${bob.patient}`,
      `Communication?subject=${bob.patient}`,
    ]) {
      const created = await http<any>('POST', 'fhir/R4/Subscription', {
        token: alice.token,
        body: chatSubscription(criteria),
      });
      expect(created.status, criteria).toBe(403);
    }
  });

  describe('Medication: the catalogue, read-only', () => {
    it("names the drug of the patient's own order that points at a Medication, as the portal asks for it", async () => {
      // The chart summary's and the Meds tab's search, as the patient: the order and its Medication.
      const own = await http<any>(
        'GET',
        `fhir/R4/MedicationRequest?subject=${alice.patient}&_include=MedicationRequest:medication`,
        { token: alice.token },
      );
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      expect(ids(own.body).sort()).toEqual([`Medication/${drugs.alice}`, `MedicationRequest/${orders.alice}`]);
      const included = own.body.entry.find((e: any) => e.resource.resourceType === 'Medication');
      expect(included.search.mode).toBe('include');
      expect(included.resource.code.text).toBe('Amlodipine 5 MG Oral Tablet');
      // Read and search of the project's catalogue.
      const read = await http<any>('GET', `fhir/R4/Medication/${drugs.alice}`, { token: alice.token });
      expect(read.status).toBe(200);
      const found = await http<any>('GET', `fhir/R4/Medication?code=${RXNORM}|197361`, { token: alice.token });
      expect(found.status).toBe(200);
      expect(ids(found.body)).toEqual([`Medication/${drugs.alice}`]);
    });

    it('never lets a patient create, change or delete one', async () => {
      const before = await http<any>('GET', `fhir/R4/Medication/${drugs.alice}`, { token: ownerToken });
      const renamed = { ...before.body, code: { text: 'Something else' } };
      const attempts = [
        http('POST', 'fhir/R4/Medication', { token: alice.token, body: medication('313782', 'Acetaminophen') }),
        http('PUT', `fhir/R4/Medication/${drugs.alice}`, { token: alice.token, body: renamed }),
        http('PATCH', `fhir/R4/Medication/${drugs.alice}`, {
          token: alice.token,
          headers: { 'content-type': 'application/json-patch+json' },
          body: [{ op: 'replace', path: '/status', value: 'inactive' }],
        }),
        http('DELETE', `fhir/R4/Medication/${drugs.alice}`, { token: alice.token }),
      ];
      for (const attempt of await Promise.all(attempts)) expect(attempt.status, JSON.stringify(attempt.body)).toBe(403);
      // Nor inside a transaction (its entries are checked one by one, and it is all or nothing).
      const bundle = await http<any>('POST', 'fhir/R4', {
        token: alice.token,
        body: {
          resourceType: 'Bundle',
          type: 'transaction',
          entry: [
            { request: { method: 'POST', url: 'Medication' }, resource: medication('313782', 'Acetaminophen') },
            { request: { method: 'PUT', url: `Medication/${drugs.alice}` }, resource: renamed },
          ],
        },
      });
      expect(bundle.status).toBe(403);
      const after = await http<any>('GET', `fhir/R4/Medication/${drugs.alice}`, { token: ownerToken });
      expect(after.body).toEqual(before.body);
      const named = await http<any>('GET', 'fhir/R4/Medication?code:text=Acetaminophen', { token: ownerToken });
      expect(named.status).toBe(200);
      expect(ids(named.body)).toEqual([]);
    });

    it("reads no Medication of another project's", async () => {
      const read = await http<any>('GET', `fhir/R4/Medication/${drugs.elsewhere}`, { token: alice.token });
      expect(read.status).toBe(404);
      const search = await http<any>('GET', `fhir/R4/Medication?_id=${drugs.elsewhere}`, { token: alice.token });
      expect(search.status).toBe(200);
      expect(ids(search.body)).toEqual([]);
    });

    it("reaches no other patient's order through a Medication (_has, _revinclude), nor directly", async () => {
      // Which drug Bob takes is his record: `_has` from Medication finds only the patient's own orders.
      const hasOwn = await http<any>(
        'GET',
        `fhir/R4/Medication?_has:MedicationRequest:medication:subject=${alice.patient}`,
        {
          token: alice.token,
        },
      );
      expect(hasOwn.status).toBe(200);
      expect(ids(hasOwn.body)).toEqual([`Medication/${drugs.alice}`]);
      const hasBob = await http<any>(
        'GET',
        `fhir/R4/Medication?_has:MedicationRequest:medication:subject=${bob.patient}`,
        {
          token: alice.token,
        },
      );
      expect(hasBob.status).toBe(200);
      expect(ids(hasBob.body)).toEqual([]);
      // The catalogue entry comes back; Bob's order that points at it does not.
      const rev = await http<any>(
        'GET',
        `fhir/R4/Medication?_id=${drugs.bob}&_revinclude=MedicationRequest:medication`,
        {
          token: alice.token,
        },
      );
      expect(rev.status).toBe(200);
      expect(ids(rev.body)).toEqual([`Medication/${drugs.bob}`]);
      // The rest of the policy is as before: Bob's order itself stays out of reach.
      const read = await http<any>('GET', `fhir/R4/MedicationRequest/${orders.bob}`, { token: alice.token });
      expect([403, 404]).toContain(read.status);
      const search = await http<any>('GET', `fhir/R4/MedicationRequest?subject=${bob.patient}`, { token: alice.token });
      expect(search.status).toBe(200);
      expect(ids(search.body)).toEqual([]);
      const all = await http<any>('GET', 'fhir/R4/MedicationRequest?_include=MedicationRequest:medication', {
        token: alice.token,
      });
      expect(all.status).toBe(200);
      expect(ids(all.body).sort()).toEqual([`Medication/${drugs.alice}`, `MedicationRequest/${orders.alice}`]);
      // …and writing an order about Bob is still refused.
      const aboutBob = await http<any>('POST', 'fhir/R4/MedicationRequest', {
        token: alice.token,
        body: orderFor(bob.patient, drugs.alice),
      });
      expect(aboutBob.status).toBe(403);
    });
  });
});

/** A clinic whose default patient policy is the seed's, with two registered patients and a clinician's message. */
async function portalClinic(name: string) {
  const owner = await registerProjectOwner(name);
  const token = owner.tokens.access_token;
  const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', { token, body: patientPortalPolicy });
  expect(policy.status).toBe(201);
  const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`, { token });
  await http('PUT', `fhir/R4/Project/${owner.projectId}`, {
    token,
    body: { ...project.body, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.body.id}` } },
  });
  const clinician = { reference: owner.tokens.profile.reference as string, display: 'Dr. Owner' };
  return {
    owner,
    token,
    clinician,
    alice: await registerPatient(owner.projectId),
    bob: await registerPatient(owner.projectId),
  };
}

/** A chat message as custom-screens/chat/chatMessages.ts newChatMessage makes it. */
const message = (
  from: { reference: string },
  about: string,
  to: { reference: string } | undefined,
  text: string,
  attachment?: { contentType: string; url: string; title: string },
) => ({
  resourceType: 'Communication',
  status: 'in-progress',
  sender: from,
  subject: { reference: about },
  ...(to ? { recipient: [to] } : {}),
  sent: new Date().toISOString(),
  payload: [{ contentString: text }, ...(attachment ? [{ contentAttachment: attachment }] : [])],
});

const jsonPatch = { 'content-type': 'application/json-patch+json' };

describe('the demo patient portal policy: her record is hers to read, her messages hers to write', () => {
  let clinic: Awaited<ReturnType<typeof portalClinic>>;
  /** Her record as the clinic wrote it. */
  const record = { observation: '', condition: '', order: '', medication: '' };
  /** The clinic's message to her with a file, and the file. */
  const shared = { message: '', binary: '' };

  const as = (token: string) => ({
    get: (path: string) => http<any>('GET', `fhir/R4/${path}`, { token }),
    post: (path: string, body: unknown) => http<any>('POST', `fhir/R4/${path}`, { token, body }),
    put: (path: string, body: unknown) => http<any>('PUT', `fhir/R4/${path}`, { token, body }),
    patch: (path: string, body: unknown) => http<any>('PATCH', `fhir/R4/${path}`, { token, body, headers: jsonPatch }),
    delete: (path: string) => http<any>('DELETE', `fhir/R4/${path}`, { token }),
  });
  const staff = () => as(clinic.token);
  const alice = () => as(clinic.alice.token);
  const created = async (answer: Promise<{ status: number; body: any }>) => {
    const done = await answer;
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    return done.body.id as string;
  };

  beforeAll(async () => {
    clinic = await portalClinic('Portal Writes Clinic');
    const patient = clinic.alice.patient;
    record.observation = await created(
      staff().post('Observation', {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '2823-3', display: 'Potassium' }] },
        subject: { reference: patient },
        valueQuantity: { value: 4.1, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
      }),
    );
    record.condition = await created(
      staff().post('Condition', {
        resourceType: 'Condition',
        clinicalStatus: {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }],
        },
        code: { text: 'Essential hypertension' },
        subject: { reference: patient },
      }),
    );
    record.medication = await created(staff().post('Medication', medication('197361', 'Amlodipine 5 MG Oral Tablet')));
    record.order = await created(staff().post('MedicationRequest', orderFor(patient, record.medication)));

    // What the chat's paperclip does (custom-screens/chat/attachments/useMediaUpload.ts), then the message.
    const media = await created(
      staff().post('Media', {
        resourceType: 'Media',
        status: 'completed',
        subject: { reference: patient },
        content: { contentType: 'text/plain' },
      }),
    );
    const upload = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${clinic.token}`,
        'content-type': 'text/plain',
        'x-security-context': `Media/${media}`,
        accept: 'application/fhir+json',
      },
      body: 'Your results are normal',
    });
    expect(upload.status).toBe(201);
    shared.binary = ((await upload.json()) as { id: string }).id;
    const withFile = message(clinic.clinician, patient, { reference: patient }, 'Your results', {
      contentType: 'text/plain',
      url: `Binary/${shared.binary}`,
      title: 'results.txt',
    });
    shared.message = await created(staff().post('Communication', withFile));
  });

  /** Her record as the clinic reads it: what the attempts below must leave as it is. */
  const snapshot = async () =>
    Promise.all(
      [
        `Observation/${record.observation}`,
        `Condition/${record.condition}`,
        `MedicationRequest/${record.order}`,
        `Patient/${clinic.alice.patient.split('/')[1]}`,
      ].map(async (path) => (await staff().get(path)).body),
    );
  const observationsOfAlice = async () =>
    ids((await staff().get(`Observation?subject=${clinic.alice.patient}&_count=100`)).body).sort();

  describe('replays of the QA walk: none of her clinical record is hers to write', () => {
    it('refuses a made-up result, a changed order, a deleted result and a patched problem (403), and changes nothing', async () => {
      const before = await snapshot();
      const observations = await observationsOfAlice();
      const order = (await staff().get(`MedicationRequest/${record.order}`)).body;
      const ownPatient = (await alice().get(clinic.alice.patient)).body;
      const attempts = [
        alice().post('Observation', {
          resourceType: 'Observation',
          status: 'final',
          code: { coding: [{ system: 'http://loinc.org', code: '2823-3', display: 'Potassium' }] },
          subject: { reference: clinic.alice.patient },
          valueQuantity: { value: 9.9, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
        }),
        alice().put(`MedicationRequest/${record.order}`, { ...order, status: 'stopped' }),
        alice().delete(`Observation/${record.observation}`),
        alice().patch(`Condition/${record.condition}`, [
          { op: 'replace', path: '/clinicalStatus/coding/0/code', value: 'resolved' },
        ]),
        // Nor her demographics, nor files of her own (the portal has no paperclip).
        alice().put(clinic.alice.patient, { ...ownPatient, birthDate: '1900-01-01' }),
        alice().post('Media', {
          resourceType: 'Media',
          status: 'preparation',
          subject: { reference: clinic.alice.patient },
          content: { contentType: 'text/plain' },
        }),
        alice().post('Binary', {
          resourceType: 'Binary',
          contentType: 'text/plain',
          securityContext: { reference: clinic.alice.patient },
          data: Buffer.from('a file of her own').toString('base64'),
        }),
      ];
      for (const attempt of await Promise.all(attempts)) expect(attempt.status, JSON.stringify(attempt.body)).toBe(403);
      expect(await snapshot()).toEqual(before);
      expect(await observationsOfAlice()).toEqual(observations);
    });

    it('refuses the same in a transaction, all or nothing: not even its message is written', async () => {
      const before = await snapshot();
      const observations = await observationsOfAlice();
      const order = (await staff().get(`MedicationRequest/${record.order}`)).body;
      const patch = [{ op: 'replace', path: '/clinicalStatus/coding/0/code', value: 'resolved' }];
      const bundle = await http<any>('POST', 'fhir/R4', {
        token: clinic.alice.token,
        body: {
          resourceType: 'Bundle',
          type: 'transaction',
          entry: [
            {
              request: { method: 'POST', url: 'Communication' },
              resource: message(
                { reference: clinic.alice.patient },
                clinic.alice.patient,
                clinic.clinician,
                'In a bundle',
              ),
            },
            {
              request: { method: 'POST', url: 'Observation' },
              resource: {
                resourceType: 'Observation',
                status: 'final',
                code: { text: 'Potassium' },
                subject: { reference: clinic.alice.patient },
                valueQuantity: { value: 9.9, unit: 'mmol/L' },
              },
            },
            {
              request: { method: 'PUT', url: `MedicationRequest/${record.order}` },
              resource: { ...order, status: 'stopped' },
            },
            { request: { method: 'DELETE', url: `Observation/${record.observation}` } },
            {
              request: { method: 'PATCH', url: `Condition/${record.condition}` },
              resource: {
                resourceType: 'Binary',
                contentType: 'application/json-patch+json',
                data: Buffer.from(JSON.stringify(patch)).toString('base64'),
              },
            },
          ],
        },
      });
      expect(bundle.status, JSON.stringify(bundle.body)).toBe(403);
      expect(await snapshot()).toEqual(before);
      expect(await observationsOfAlice()).toEqual(observations);
      const messages = await staff().get(`Communication?subject=${clinic.alice.patient}&_count=100`);
      expect(JSON.stringify(messages.body)).not.toContain('In a bundle');
    });
  });

  describe('what the portal does still works', () => {
    it('reads her record, the Medication her order points at included', async () => {
      for (const path of [
        `Observation/${record.observation}`,
        `Condition/${record.condition}`,
        `MedicationRequest/${record.order}`,
        `Medication/${record.medication}`,
        clinic.alice.patient,
      ]) {
        expect((await alice().get(path)).status, path).toBe(200);
      }
      const meds = await alice().get(
        `MedicationRequest?subject=${clinic.alice.patient}&_include=MedicationRequest:medication`,
      );
      expect(ids(meds.body).sort()).toEqual([`Medication/${record.medication}`, `MedicationRequest/${record.order}`]);
    });

    it('sends a message from her to the clinic, and one with only her as recipient (no clinician wrote yet)', async () => {
      const toClinic = await created(
        alice().post(
          'Communication',
          message({ reference: clinic.alice.patient }, clinic.alice.patient, clinic.clinician, 'Thank you, doctor'),
        ),
      );
      const toNobody = await created(
        alice().post(
          'Communication',
          message(
            { reference: clinic.alice.patient },
            clinic.alice.patient,
            { reference: clinic.alice.patient },
            'Hello?',
          ),
        ),
      );
      const seen = await staff().get(`Communication?subject=${clinic.alice.patient}&_count=100`);
      expect(ids(seen.body)).toEqual(
        expect.arrayContaining([`Communication/${toClinic}`, `Communication/${toNobody}`]),
      );
    });

    it('opens the file of a message the clinic sent her, and marks that message read', async () => {
      const read = await alice().get(`Communication/${shared.message}`);
      expect(read.status).toBe(200);
      const attachment = read.body.payload.find((part: any) => part.contentAttachment).contentAttachment;
      const signed = await fetch(attachment.url);
      expect(await signed.text()).toBe('Your results are normal');
      const file = await fetch(new URL(`fhir/R4/Binary/${shared.binary}`, baseUrl()), {
        headers: { authorization: `Bearer ${clinic.alice.token}` },
      });
      expect(await file.text()).toBe('Your results are normal');

      // markedRead (custom-screens/chat/chatMessages.ts): the message as read, sent back whole.
      const marked = await alice().put(`Communication/${shared.message}`, {
        ...read.body,
        status: 'completed',
        received: new Date().toISOString(),
      });
      expect(marked.status, JSON.stringify(marked.body)).toBe(200);
      const after = await staff().get(`Communication/${shared.message}`);
      expect(after.body.status).toBe('completed');
      expect(after.body.payload[1].contentAttachment.url).toMatch(/Binary\/|\/storage\//);
    });

    it('watches her conversation live: the clinic’s next message reaches her socket', async () => {
      const subscription = await created(
        alice().post('Subscription', chatSubscription(`Communication?subject=${clinic.alice.patient}`)),
      );
      const binding = await alice().get(`Subscription/${subscription}/$get-ws-binding-token`);
      expect(binding.status).toBe(200);
      const token = binding.body.parameter.find((p: any) => p.name === 'token').valueString;
      const socket = await SocketTestClient.open(`${baseUrl().replace(/^http/, 'ws')}ws/subscriptions-r4`);
      try {
        await socket.bind(token, subscription);
        const sent = await created(
          staff().post(
            'Communication',
            message(clinic.clinician, clinic.alice.patient, { reference: clinic.alice.patient }, 'Live'),
          ),
        );
        const notification = await socket.notification(subscription);
        expect(JSON.stringify(notification)).toContain(sent);
      } finally {
        await socket.close();
      }
    });
  });

  describe('what she writes is narrowed to what the portal writes', () => {
    it('refuses a message in someone else’s name, about another patient, or already marked read', async () => {
      const self = { reference: clinic.alice.patient };
      for (const body of [
        message(clinic.clinician, clinic.alice.patient, clinic.clinician, 'From the doctor to the doctor, says Alice'),
        // The read mark's entry (update of a message to her) creates nothing: no forged message from the clinic.
        message(clinic.clinician, clinic.alice.patient, self, 'From the doctor to Alice, says Alice'),
        { ...message(clinic.clinician, clinic.alice.patient, self, 'Read forgery'), status: 'completed' },
        message(self, clinic.bob.patient, clinic.clinician, 'About Bob'),
        message(self, clinic.alice.patient, { reference: clinic.bob.patient }, 'To Bob'),
        { ...message(self, clinic.alice.patient, clinic.clinician, 'Already read'), status: 'completed' },
      ]) {
        const answer = await alice().post('Communication', body);
        expect(answer.status, body.payload[0].contentString).toBe(403);
      }
    });

    it('leaves a message once the clinic read it, and messages not addressed to her, as they are', async () => {
      const own = await created(
        alice().post(
          'Communication',
          message({ reference: clinic.alice.patient }, clinic.alice.patient, clinic.clinician, 'Mine'),
        ),
      );
      const read = (await staff().get(`Communication/${own}`)).body;
      expect((await staff().put(`Communication/${own}`, { ...read, status: 'completed' })).status).toBe(200);
      // Between staff, about her: she may not change it (nor read it: the working material, below).
      const colleague = {
        reference: `Practitioner/${await created(staff().post('Practitioner', { resourceType: 'Practitioner' }))}`,
      };
      const staffNote = await created(
        staff().post('Communication', message(clinic.clinician, clinic.alice.patient, colleague, 'Between staff')),
      );
      for (const id of [own, staffNote]) {
        const current = (await staff().get(`Communication/${id}`)).body;
        expect(
          (await alice().put(`Communication/${id}`, { ...current, payload: [{ contentString: 'Changed' }] })).status,
        ).toBe(403);
        expect((await alice().delete(`Communication/${id}`)).status).toBe(403);
        expect((await staff().get(`Communication/${id}`)).body.payload[0].contentString).not.toBe('Changed');
      }
      // A message to her she may mark read, not delete; her own she cannot change once sent.
      expect((await alice().delete(`Communication/${shared.message}`)).status).toBe(403);
      const unread = await created(
        alice().post(
          'Communication',
          message({ reference: clinic.alice.patient }, clinic.alice.patient, clinic.clinician, 'Unread, mine'),
        ),
      );
      const mine = (await alice().get(`Communication/${unread}`)).body;
      expect(
        (await alice().put(`Communication/${unread}`, { ...mine, payload: [{ contentString: 'Edited' }] })).status,
      ).toBe(403);
      expect((await alice().delete(`Communication/${unread}`)).status).toBe(403);
      // Nor can she make a message to her one about someone else.
      const toHer = (await alice().get(`Communication/${shared.message}`)).body;
      const moved = await alice().put(`Communication/${shared.message}`, {
        ...toHer,
        subject: { reference: clinic.bob.patient },
      });
      expect(moved.status).toBe(403);
    });

    it('marks a message to her read without rewriting it: its text, sender and date stay the clinic’s', async () => {
      const sent = await created(
        staff().post(
          'Communication',
          message(clinic.clinician, clinic.alice.patient, { reference: clinic.alice.patient }, 'Take 5 mg daily'),
        ),
      );
      const toHer = (await alice().get(`Communication/${sent}`)).body;
      const readMark = { status: 'completed', received: new Date().toISOString() };
      for (const [change, forged] of [
        ['payload', { payload: [{ contentString: 'Take 50 mg daily' }] }],
        ['sender', { sender: { reference: clinic.alice.patient } }],
        ['sent', { sent: '2020-01-01T00:00:00Z' }],
        ['note', { note: [{ text: 'The doctor said I may stop' }] }],
      ] as const) {
        const answer = await alice().put(`Communication/${sent}`, { ...toHer, ...readMark, ...forged });
        expect(answer.status, change).toBe(403);
        expect(JSON.stringify(answer.body)).toContain(`Communication.${change}`);
      }
      // Hiding the clinic's message as entered in error is not a read mark either.
      const hidden = await alice().put(`Communication/${sent}`, { ...toHer, status: 'entered-in-error' });
      expect(hidden.status).toBe(403);
      const stored = (await staff().get(`Communication/${sent}`)).body;
      expect(stored.payload[0].contentString).toBe('Take 5 mg daily');
      expect(stored.sender).toEqual(clinic.clinician);
      expect(stored.status).toBe('in-progress');
      expect(stored.meta.versionId).toBe(toHer.meta.versionId);
      // The read mark itself still goes through, with nothing else changed.
      const marked = await alice().put(`Communication/${sent}`, { ...toHer, ...readMark });
      expect(marked.status, JSON.stringify(marked.body)).toBe(200);
      expect(marked.body.payload[0].contentString).toBe('Take 5 mg daily');
      expect(marked.body.status).toBe('completed');
    });

    it('makes only a websocket Subscription, and sees none of the clinic’s on her conversation', async () => {
      const bot = await created(staff().post('Bot', { resourceType: 'Bot', name: 'Clinic bot' }));
      const restHook = await alice().post('Subscription', {
        ...chatSubscription(`Communication?subject=${clinic.alice.patient}`),
        channel: { type: 'rest-hook', endpoint: `Bot/${bot}` },
      });
      expect(restHook.status).toBe(403);
      // The clinician's own live chat on her conversation: same criteria, not hers.
      const clinics = await created(
        staff().post('Subscription', chatSubscription(`Communication?subject=${clinic.alice.patient}`)),
      );
      expect([403, 404]).toContain((await alice().get(`Subscription/${clinics}`)).status);
      expect([403, 404]).toContain((await alice().get(`Subscription/${clinics}/$get-ws-binding-token`)).status);
      expect([403, 404]).toContain((await alice().delete(`Subscription/${clinics}`)).status);
      const found = await alice().get(`Subscription?criteria=Communication`);
      expect(ids(found.body)).not.toContain(`Subscription/${clinics}`);
      expect((await staff().get(`Subscription/${clinics}`)).status).toBe(200);
      // Nor can she turn her own into a rest-hook.
      const own = (
        await alice().post('Subscription', chatSubscription(`Communication?subject=${clinic.alice.patient}`))
      ).body;
      const hooked = await alice().put(`Subscription/${own.id}`, {
        ...own,
        channel: { type: 'rest-hook', endpoint: `Bot/${bot}` },
      });
      expect(hooked.status).toBe(403);
    });
  });

  describe('the care team’s working material about her is not hers to read', () => {
    const refused = (answer: { status: number }) => expect([403, 404]).toContain(answer.status);
    /** Everything she can reach about herself at once: the chart's searches aside, `$everything`. */
    const everything = async () => ids((await alice().get(`${clinic.alice.patient}/$everything?_count=1000`)).body);

    /** A visit note as custom-screens/visit-note saves it: a draft (in-progress) until submitted. */
    const visitNote = (status: string, text: string) => ({
      resourceType: 'QuestionnaireResponse',
      status,
      questionnaire: 'http://example.org/Questionnaire/menopause-visit',
      subject: { reference: clinic.alice.patient },
      author: clinic.clinician,
      authored: new Date().toISOString(),
      item: [{ linkId: 'assessment', answer: [{ valueString: text }] }],
    });

    it('refuses the clinician’s visit-note draft, by id and by every search; a completed note she reads', async () => {
      const draft = await created(staff().post('QuestionnaireResponse', visitNote('in-progress', 'Query: alcohol?')));
      const done = await created(staff().post('QuestionnaireResponse', visitNote('completed', 'Doing well')));
      const amended = await created(staff().post('QuestionnaireResponse', visitNote('amended', 'Doing well, BP ok')));
      refused(await alice().get(`QuestionnaireResponse/${draft}`));
      expect((await alice().get(`QuestionnaireResponse/${done}`)).status).toBe(200);
      expect((await alice().get(`QuestionnaireResponse/${amended}`)).status).toBe(200);
      for (const search of [
        `QuestionnaireResponse?subject=${clinic.alice.patient}`,
        `QuestionnaireResponse?patient=${clinic.alice.patient}&status=in-progress`,
        `QuestionnaireResponse?_id=${draft}`,
      ]) {
        const found = await alice().get(search);
        expect(found.status, search).toBe(200);
        expect(ids(found.body), search).not.toContain(`QuestionnaireResponse/${draft}`);
      }
      const own = await alice().get(`QuestionnaireResponse?subject=${clinic.alice.patient}`);
      expect(ids(own.body).sort()).toEqual(
        [`QuestionnaireResponse/${done}`, `QuestionnaireResponse/${amended}`].sort(),
      );
      const revincluded = await alice().get(
        `Patient?_id=${clinic.alice.patient.split('/')[1]}&_revinclude=QuestionnaireResponse:subject`,
      );
      expect(ids(revincluded.body)).not.toContain(`QuestionnaireResponse/${draft}`);
      expect(await everything()).not.toContain(`QuestionnaireResponse/${draft}`);
      expect(await everything()).toContain(`QuestionnaireResponse/${done}`);
      // The staff still read and search it (the visit note's own search, useVisitNoteData.ts).
      const drafts = await staff().get(`QuestionnaireResponse?subject=${clinic.alice.patient}&status=in-progress`);
      expect(ids(drafts.body)).toContain(`QuestionnaireResponse/${draft}`);

      // Submitted, the note is hers to read; the drafts it went through are not (vread, history).
      const stored = (await staff().get(`QuestionnaireResponse/${draft}`)).body;
      const submitted = await staff().put(`QuestionnaireResponse/${draft}`, {
        ...stored,
        status: 'completed',
        item: [{ linkId: 'assessment', answer: [{ valueString: 'Reviewed: no concerns' }] }],
      });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      expect((await alice().get(`QuestionnaireResponse/${draft}`)).status).toBe(200);
      refused(await alice().get(`QuestionnaireResponse/${draft}/_history/${stored.meta.versionId}`));
      const history = await alice().get(`QuestionnaireResponse/${draft}/_history`);
      expect(JSON.stringify(history.body)).not.toContain('Query: alcohol?');
      expect(JSON.stringify(history.body)).toContain('Reviewed: no concerns');
    });

    it('refuses the staff’s Task about her and its notes, by id and by search; a task she owns she reads', async () => {
      const patient = { reference: clinic.alice.patient };
      const task = (owner: { reference: string }, note: string) => ({
        resourceType: 'Task',
        status: 'ready',
        intent: 'order',
        code: { text: 'Review lab results' },
        for: patient,
        owner,
        requester: clinic.clinician,
        note: [{ text: note }],
      });
      const staffTask = await created(staff().post('Task', task(clinic.clinician, 'Suspect non-adherence')));
      const unowned = await created(staff().post('Task', { ...task(clinic.clinician, 'Call her'), owner: undefined }));
      const hers = await created(staff().post('Task', task(patient, 'Please book a blood test')));
      refused(await alice().get(`Task/${staffTask}`));
      refused(await alice().get(`Task/${unowned}`));
      expect((await alice().get(`Task/${hers}`)).body.note[0].text).toBe('Please book a blood test');
      for (const search of [
        `Task?patient=${clinic.alice.patient}`,
        `Task?subject=${clinic.alice.patient}`,
        `Task?_id=${staffTask},${unowned},${hers}`,
        'Task?_count=100',
      ]) {
        const found = await alice().get(search);
        expect(found.status, search).toBe(200);
        expect(ids(found.body), search).toEqual([`Task/${hers}`]);
      }
      const revincluded = await alice().get(
        `Patient?_id=${clinic.alice.patient.split('/')[1]}&_revinclude=Task:patient`,
      );
      expect(ids(revincluded.body).filter((id) => id.startsWith('Task/'))).toEqual([`Task/${hers}`]);
      const all = await everything();
      expect(all).not.toContain(`Task/${staffTask}`);
      expect(all).not.toContain(`Task/${unowned}`);
      expect((await staff().get(`Task?patient=${clinic.alice.patient}&_count=100`)).body.entry.length).toBe(3);
    });

    it('refuses messages between staff about her; her conversation with the clinic she still reads, live too', async () => {
      const colleague = {
        reference: `Practitioner/${await created(staff().post('Practitioner', { resourceType: 'Practitioner' }))}`,
      };
      const staffNote = await created(
        staff().post('Communication', message(clinic.clinician, clinic.alice.patient, colleague, 'She seems anxious')),
      );
      const toHer = await created(
        staff().post(
          'Communication',
          message(clinic.clinician, clinic.alice.patient, { reference: clinic.alice.patient }, 'See you Monday'),
        ),
      );
      const fromHer = await created(
        alice().post(
          'Communication',
          message({ reference: clinic.alice.patient }, clinic.alice.patient, clinic.clinician, 'Thanks'),
        ),
      );
      refused(await alice().get(`Communication/${staffNote}`));
      // The chat's own search (custom-screens/chat/chatMessages.ts conversationQuery) and the timeline's.
      const conversation = await alice().get(`Communication?subject=${clinic.alice.patient}&_sort=-sent&_count=100`);
      expect(ids(conversation.body)).toEqual(
        expect.arrayContaining([`Communication/${toHer}`, `Communication/${fromHer}`]),
      );
      expect(ids(conversation.body)).not.toContain(`Communication/${staffNote}`);
      expect(await everything()).not.toContain(`Communication/${staffNote}`);

      // Live: the staff's message about her never reaches her socket; the next one to her does.
      const subscription = await created(
        alice().post('Subscription', chatSubscription(`Communication?subject=${clinic.alice.patient}`)),
      );
      const binding = await alice().get(`Subscription/${subscription}/$get-ws-binding-token`);
      const token = binding.body.parameter.find((p: any) => p.name === 'token').valueString;
      const socket = await SocketTestClient.open(`${baseUrl().replace(/^http/, 'ws')}ws/subscriptions-r4`);
      try {
        await socket.bind(token, subscription);
        const between = await created(
          staff().post('Communication', message(clinic.clinician, clinic.alice.patient, colleague, 'Between us')),
        );
        const next = await created(
          staff().post(
            'Communication',
            message(clinic.clinician, clinic.alice.patient, { reference: clinic.alice.patient }, 'Live'),
          ),
        );
        const notification = JSON.stringify(await socket.notification(subscription));
        expect(notification).not.toContain(between);
        expect(notification).toContain(next);
      } finally {
        await socket.close();
      }
    });

    it('refuses a preliminary Composition and an assessment in progress; final and completed ones she reads', async () => {
      const composition = (status: string) => ({
        resourceType: 'Composition',
        status,
        type: { text: 'Discharge summary' },
        subject: { reference: clinic.alice.patient },
        date: new Date().toISOString(),
        author: [clinic.clinician],
        title: `Summary (${status})`,
      });
      const impression = (status: string) => ({
        resourceType: 'ClinicalImpression',
        status,
        subject: { reference: clinic.alice.patient },
        assessor: clinic.clinician,
        summary: `Assessment (${status})`,
      });
      const preliminary = await created(staff().post('Composition', composition('preliminary')));
      const final = await created(staff().post('Composition', composition('final')));
      const inProgress = await created(staff().post('ClinicalImpression', impression('in-progress')));
      const completed = await created(staff().post('ClinicalImpression', impression('completed')));
      refused(await alice().get(`Composition/${preliminary}`));
      refused(await alice().get(`ClinicalImpression/${inProgress}`));
      expect((await alice().get(`Composition/${final}`)).status).toBe(200);
      expect((await alice().get(`ClinicalImpression/${completed}`)).status).toBe(200);
      expect(ids((await alice().get(`Composition?subject=${clinic.alice.patient}`)).body)).toEqual([
        `Composition/${final}`,
      ]);
      expect(ids((await alice().get(`ClinicalImpression?subject=${clinic.alice.patient}`)).body)).toEqual([
        `ClinicalImpression/${completed}`,
      ]);
    });
  });
});
