import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueExpressions } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { clinicWithPatientRegistration, registerPatient } from '../../tests/integration/patientAccounts';
import { memberUnderPolicy } from '../../tests/integration/policyMember';
import { patientPortalPolicy } from '../seed/patientPortalPolicy';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/*
 * Reference integrity (outside review): a reference written as this server's own absolute URL is
 * the local reference it names, checked as such; and a caller limited to some rows of a type (a
 * patient) may point only at what she may read — never at another patient.
 */

const as = (token: string) => ({
  get: (path: string) => http<any>('GET', `fhir/R4/${path}`, { token }),
  post: (path: string, body: unknown) => http<any>('POST', `fhir/R4/${path}`, { token, body }),
  put: (path: string, body: unknown) => http<any>('PUT', `fhir/R4/${path}`, { token, body }),
});

const ids = (bundle: any): string[] =>
  (bundle.entry ?? []).map((e: any) => `${e.resource.resourceType}/${e.resource.id}`);

const observation = (subject: string) => ({
  resourceType: 'Observation',
  status: 'final',
  code: { text: 'Survey' },
  subject: { reference: subject },
});

async function created(answer: Promise<{ status: number; body: any }>): Promise<string> {
  const done = await answer;
  expect(done.status, JSON.stringify(done.body)).toBe(201);
  return done.body.id as string;
}

describe("an absolute URL of this server's own FHIR base is a local reference", () => {
  /** The Demo Clinic's patient, and Eve, admin of her own self-registered project. */
  let demo: { token: string; patientId: string };
  let eve: { token: string; patientId: string };

  beforeAll(async () => {
    const clinic = await registerProjectOwner('Reference Demo Clinic');
    demo = {
      token: clinic.tokens.access_token,
      patientId: await created(as(clinic.tokens.access_token).post('Patient', { resourceType: 'Patient' })),
    };
    const own = await registerProjectOwner('Eve Project');
    eve = {
      token: own.tokens.access_token,
      patientId: await created(as(own.tokens.access_token).post('Patient', { resourceType: 'Patient' })),
    };
  });

  it("refuses another project's patient by its full URL exactly as by Patient/{id} (400 naming the element)", async () => {
    const fhirBase = `${baseUrl()}fhir/R4/`; // http://127.0.0.1:{port}/fhir/R4/
    const port = new URL(baseUrl()).port;
    const relative = await as(eve.token).post('Observation', observation(`Patient/${demo.patientId}`));
    expect(relative.status).toBe(400);
    for (const subject of [
      `${fhirBase}Patient/${demo.patientId}`,
      `http://localhost:${port}/fhir/R4/Patient/${demo.patientId}`,
      `HTTP://LOCALHOST:${port}/FHIR/r4/Patient/${demo.patientId}/`,
      `https://127.0.0.1:${port}/fhir/R4//Patient/${demo.patientId}`,
      `${fhirBase}Patient/${demo.patientId}/_history/1`,
      `/fhir/R4/Patient/${demo.patientId}`,
    ]) {
      const answer = await as(eve.token).post('Observation', observation(subject));
      expect(answer.status, subject).toBe(400);
      expect(issueExpressions(answer.body), subject).toEqual(['Observation.subject.reference']);
      expect(answer.body, subject).toEqual(relative.body);
    }
    // Nothing of hers landed in the Demo Clinic patient's compartment or index.
    const bySubject = await as(eve.token).get(`Observation?subject=Patient/${demo.patientId}`);
    const byPatient = await as(eve.token).get(`Observation?patient=${demo.patientId}`);
    expect(ids(bySubject.body)).toEqual([]);
    expect(ids(byPatient.body)).toEqual([]);
  });

  it('stores a full URL to her own patient as Patient/{id}: one compartment, one index, both searches agree', async () => {
    const id = await created(
      as(eve.token).post('Observation', observation(`${baseUrl()}fhir/R4/Patient/${eve.patientId}`)),
    );
    const stored = await as(eve.token).get(`Observation/${id}`);
    expect(stored.body.subject.reference).toBe(`Patient/${eve.patientId}`);
    expect(stored.body.meta.compartment).toEqual([{ reference: `Patient/${eve.patientId}` }]);
    expect(ids((await as(eve.token).get(`Observation?subject=Patient/${eve.patientId}`)).body)).toContain(
      `Observation/${id}`,
    );
    expect(ids((await as(eve.token).get(`Observation?patient=${eve.patientId}`)).body)).toContain(`Observation/${id}`);
  });

  it("keeps another server's absolute URL as written, in no compartment of this server", async () => {
    const external = `https://other.example/fhir/R4/Patient/${demo.patientId}`;
    const id = await created(as(eve.token).post('Observation', observation(external)));
    const stored = await as(eve.token).get(`Observation/${id}`);
    expect(stored.body.subject.reference).toBe(external);
    expect(stored.body.meta.compartment).toBeUndefined();
    // The Demo Clinic sees nothing of it, by either search.
    expect(ids((await as(demo.token).get(`Observation?patient=${demo.patientId}`)).body)).toEqual([]);
    expect(ids((await as(demo.token).get(`Observation?subject=Patient/${demo.patientId}`)).body)).toEqual([]);
  });
});

/** A clinic whose default patient policy is the demo's portal policy, with two patients. */
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
  return {
    token,
    clinician: { reference: owner.tokens.profile.reference as string, display: 'Dr. Owner' },
    alice: await registerPatient(owner.projectId),
    bob: await registerPatient(owner.projectId),
  };
}

/** A chat message from her, about her, as custom-screens/chat/chatMessages.ts newChatMessage makes it. */
const fromPatient = (patient: string, recipient: { reference: string }, extra: Record<string, unknown> = {}) => ({
  resourceType: 'Communication',
  status: 'in-progress',
  sender: { reference: patient },
  subject: { reference: patient },
  recipient: [recipient],
  sent: new Date().toISOString(),
  payload: [{ contentString: 'Hello' }],
  ...extra,
});

describe("a patient writes references only to what she may read: no other patient's record", () => {
  let clinic: Awaited<ReturnType<typeof portalClinic>>;
  const bobs = { encounter: '', order: '', binary: '' };
  const alices = { encounter: '', order: '', medication: '' };

  beforeAll(async () => {
    clinic = await portalClinic('Reference Portal Clinic');
    const staff = as(clinic.token);
    const encounter = (patient: string) => ({
      resourceType: 'Encounter',
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
      subject: { reference: patient },
    });
    const order = (patient: string) => ({
      resourceType: 'ServiceRequest',
      status: 'active',
      intent: 'order',
      code: { text: 'Lipid panel' },
      subject: { reference: patient },
    });
    bobs.encounter = await created(staff.post('Encounter', encounter(clinic.bob.patient)));
    bobs.order = await created(staff.post('ServiceRequest', order(clinic.bob.patient)));
    alices.encounter = await created(staff.post('Encounter', encounter(clinic.alice.patient)));
    alices.order = await created(staff.post('ServiceRequest', order(clinic.alice.patient)));
    alices.medication = await created(
      staff.post('Medication', { resourceType: 'Medication', code: { text: 'Amlodipine 5 MG Oral Tablet' } }),
    );
    // A file the clinic keeps for Bob: in his compartment through its security context.
    const upload = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${clinic.token}`,
        'content-type': 'text/plain',
        'x-security-context': clinic.bob.patient,
        accept: 'application/fhir+json',
      },
      body: "Bob's results",
    });
    expect(upload.status).toBe(201);
    bobs.binary = ((await upload.json()) as { id: string }).id;
  });

  it('refuses a message about, based on or in the encounter of another patient, naming the element (400)', async () => {
    const alice = as(clinic.alice.token);
    const bob = clinic.bob.patient;
    const attempts: [Record<string, unknown>, string][] = [
      [{ about: [{ reference: bob }] }, 'Communication.about[0].reference'],
      [{ basedOn: [{ reference: bob }] }, 'Communication.basedOn[0].reference'],
      [{ basedOn: [{ reference: `ServiceRequest/${bobs.order}` }] }, 'Communication.basedOn[0].reference'],
      [{ encounter: { reference: `Encounter/${bobs.encounter}` } }, 'Communication.encounter.reference'],
      [
        { payload: [{ contentReference: { reference: `Binary/${bobs.binary}` } }] },
        'Communication.payload[0].contentReference.reference',
      ],
      // The same by this server's full URL; by a relative text ending in his Patient/{id}, which the
      // search index (server/search/indexRows.ts) files under his id; and inside a contained resource.
      // (Another server's URL ending in his id is allowed: it names nobody here, below.)
      [{ about: [{ reference: `${baseUrl()}fhir/R4/${bob}` }] }, 'Communication.about[0].reference'],
      [{ about: [{ reference: `Group/x/${bob}` }] }, 'Communication.about[0].reference'],
      [
        {
          contained: [
            { resourceType: 'Observation', id: 'o', status: 'final', code: { text: 'x' }, subject: { reference: bob } },
          ],
          about: [{ reference: '#o' }],
        },
        'Communication.contained[0].subject.reference',
      ],
    ];
    for (const [extra, path] of attempts) {
      const answer = await alice.post('Communication', fromPatient(clinic.alice.patient, clinic.clinician, extra));
      expect(answer.status, JSON.stringify(extra)).toBe(400);
      expect(issueExpressions(answer.body), JSON.stringify(extra)).toEqual([path]);
    }
    // Nothing of it reached Bob's side of the clinic's searches.
    const staff = as(clinic.token);
    for (const query of [
      `based-on=${bob}`,
      `based-on=ServiceRequest/${bobs.order}`,
      `encounter=Encounter/${bobs.encounter}`,
    ]) {
      expect(ids((await staff.get(`Communication?${query}`)).body), query).toEqual([]);
    }
  });

  it('answers a target that does not exist exactly like one she may not read', async () => {
    const alice = as(clinic.alice.token);
    const other = await alice.post(
      'Communication',
      fromPatient(clinic.alice.patient, clinic.clinician, { about: [{ reference: clinic.bob.patient }] }),
    );
    const absent = await alice.post(
      'Communication',
      fromPatient(clinic.alice.patient, clinic.clinician, { about: [{ reference: 'Patient/never-existed-9' }] }),
    );
    expect(absent.status).toBe(400);
    expect(absent.body).toEqual(other.body);
  });

  it('still sends her own messages: to the clinician, about, based on and in her own record, and the catalogue', async () => {
    const alice = as(clinic.alice.token);
    const me = clinic.alice.patient;
    const id = await created(
      alice.post(
        'Communication',
        fromPatient(me, clinic.clinician, {
          // Another server's URL ending in Bob's id names nobody here: the index gives it no target.
          about: [
            { reference: me },
            { reference: `Medication/${alices.medication}` },
            { reference: `https://other.example/fhir/${clinic.bob.patient}` },
          ],
          basedOn: [{ reference: `ServiceRequest/${alices.order}` }],
          encounter: { reference: `Encounter/${alices.encounter}` },
          contained: [
            { resourceType: 'Observation', id: 'o', status: 'final', code: { text: 'x' }, subject: { reference: me } },
          ],
          partOf: [{ reference: '#o' }],
        }),
      ),
    );
    // To herself only (no clinician wrote yet).
    await created(alice.post('Communication', fromPatient(me, { reference: me })));
    const seen = await as(clinic.token).get(`Communication?subject=${me}&_count=100`);
    expect(ids(seen.body)).toContain(`Communication/${id}`);
  });

  it('marks a clinician message read, and leaves a stored reference she cannot read as it is', async () => {
    // The clinic's message to her names Bob's order (a clinician may): her read mark changes none of it.
    const staff = as(clinic.token);
    const sent = await created(
      staff.post('Communication', {
        resourceType: 'Communication',
        status: 'in-progress',
        sender: clinic.clinician,
        subject: { reference: clinic.alice.patient },
        recipient: [{ reference: clinic.alice.patient }],
        basedOn: [{ reference: `ServiceRequest/${bobs.order}` }],
        payload: [{ contentString: 'Please book a visit' }],
      }),
    );
    const read = await as(clinic.alice.token).get(`Communication/${sent}`);
    expect(read.status).toBe(200);
    const marked = await as(clinic.alice.token).put(`Communication/${sent}`, {
      ...read.body,
      status: 'completed',
      received: new Date().toISOString(),
    });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
  });
});

describe("a patient whose policy lets her write her compartment (the files clinic's)", () => {
  let alice: { token: string; patient: string };
  let bob: { token: string; patient: string };

  beforeAll(async () => {
    const owner = await clinicWithPatientRegistration('Reference Files Clinic');
    alice = await registerPatient(owner.projectId);
    bob = await registerPatient(owner.projectId);
  });

  it('resolves urn:uuid references of a transaction to its new resources, and refuses one to another patient', async () => {
    const transaction = (subject: string) => ({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:8f1c7a52-0000-4000-8000-000000000001',
          request: { method: 'POST', url: 'Media' },
          resource: {
            resourceType: 'Media',
            status: 'completed',
            subject: { reference: alice.patient },
            content: { contentType: 'text/plain' },
          },
        },
        {
          request: { method: 'POST', url: 'Observation' },
          resource: {
            ...observation(alice.patient),
            derivedFrom: [{ reference: 'urn:uuid:8f1c7a52-0000-4000-8000-000000000001' }],
            focus: [{ reference: subject }],
          },
        },
      ],
    });
    const own = await http<any>('POST', 'fhir/R4', { token: alice.token, body: transaction(alice.patient) });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const other = await http<any>('POST', 'fhir/R4', { token: alice.token, body: transaction(bob.patient) });
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toContain('Observation.focus[0].reference');
  });

  it('uploads a file for her own record (Binary with her as security context, Media pointing at it)', async () => {
    const upload = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${alice.token}`,
        'content-type': 'text/plain',
        'x-security-context': alice.patient,
        accept: 'application/fhir+json',
      },
      body: 'my file',
    });
    expect(upload.status).toBe(201);
    const binary = ((await upload.json()) as { id: string }).id;
    await created(
      as(alice.token).post('Media', {
        resourceType: 'Media',
        status: 'completed',
        subject: { reference: alice.patient },
        content: { contentType: 'text/plain', url: `Binary/${binary}` },
      }),
    );
    // Bob's file is no context of hers.
    const bobs = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${alice.token}`,
        'content-type': 'text/plain',
        'x-security-context': bob.patient,
        accept: 'application/fhir+json',
      },
      body: 'not mine',
    });
    expect(bobs.status).toBeGreaterThanOrEqual(400);
  });
});

describe('a role limited by criteria, which writes results without reading Patients', () => {
  it("names the patient it writes about and that patient's encounter, not another patient's", async () => {
    const owner = await registerProjectOwner('Reference Criteria Clinic');
    const staff = as(owner.tokens.access_token);
    const patients = {
      alice: await created(staff.post('Patient', { resourceType: 'Patient' })),
      bob: await created(staff.post('Patient', { resourceType: 'Patient' })),
    };
    const encounterOf = (patient: string) =>
      created(
        staff.post('Encounter', {
          resourceType: 'Encounter',
          status: 'finished',
          class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
          subject: { reference: `Patient/${patient}` },
        }),
      );
    const encounters = { alice: await encounterOf(patients.alice), bob: await encounterOf(patients.bob) };
    const lab = await memberUnderPolicy(owner.projectId, owner.tokens.access_token, {
      resource: [{ resourceType: 'Observation', criteria: 'Observation?status=final' }],
    });
    const result = (encounter: string) => ({
      ...observation(`Patient/${patients.bob}`),
      encounter: { reference: `Encounter/${encounter}` },
    });
    await created(as(lab.token).post('Observation', result(encounters.bob)));
    const crossed = await as(lab.token).post('Observation', result(encounters.alice));
    expect(crossed.status).toBe(400);
    expect(issueExpressions(crossed.body)).toEqual(['Observation.encounter.reference']);
  });
});
