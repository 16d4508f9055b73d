import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { registerPatient } from '../../tests/integration/patientAccounts';
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
