import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { startDoseSpotTestServer, type DoseSpotTestServer } from '../../tests/integration/dosespotTestServer';
import { inviteMember, type Member } from '../admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * The shipped DoseSpot bots end to end: deployed with `npm run deploy-dosespot`, run by
 * `Bot/$execute?identifier=…` in the real sandbox, calling the local DoseSpot test server (listed
 * in the suite's BOT_FETCH_ALLOWED_HOSTS), which checks every request against DoseSpot's contract.
 */

const run = promisify(execFile);
const system = 'https://www.medplum.com/bots';
const clinicianId = '304015';
const counts = {
  PendingPrescriptionsCount: 2,
  PendingRxChangeCount: 1,
  RefillRequestsCount: 4,
  TransactionErrorsCount: 3,
};

let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
let doseSpot: DoseSpotTestServer;
let clinician: Member;
let noDoseSpotId: Member;
let patientId: string;

function execute(token: string, identifier: string, input: unknown = {}) {
  return http<any>('POST', `fhir/R4/Bot/$execute?identifier=${encodeURIComponent(`${system}|${identifier}`)}`, {
    token,
    body: input,
    headers: { 'content-type': 'application/json' },
  });
}

/** A member who may run the project's bots and work on Patients (not a project admin). */
function clinicianMember(): Promise<Member> {
  return inviteMember(owner.tokens.access_token, owner.projectId, {
    policy: { resource: [{ resourceType: 'Bot' }, { resourceType: 'Patient' }] },
  });
}

beforeAll(async () => {
  owner = await registerProjectOwner('DoseSpot Prescribing Clinic');
  doseSpot = await startDoseSpotTestServer({
    clinicId: '1234',
    clinicKey: 'TestClinicKey-5c1c0d4e',
    subscriptionKey: 'test-subscription-key',
    clinicians: { [clinicianId]: counts },
    port: inject('doseSpotPort'),
  });
  await run(
    process.execPath,
    ['--import', 'tsx', 'server/cli/deployDoseSpotCommand.ts', '--project', owner.projectId, '--server', baseUrl()],
    { env: { ...process.env, HEARTH_TOKEN: owner.tokens.access_token }, timeout: 60_000 },
  );
  // The project's DoseSpot secrets, as a project admin sets them (Project.secret).
  const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`, { token: owner.tokens.access_token });
  expect(project.status).toBe(200);
  const saved = await http<any>('PUT', `fhir/R4/Project/${owner.projectId}`, {
    token: owner.tokens.access_token,
    body: {
      ...project.body,
      secret: [
        { name: 'DOSESPOT_CLINIC_ID', valueString: '1234' },
        { name: 'DOSESPOT_CLINIC_KEY', valueString: 'TestClinicKey-5c1c0d4e' },
        { name: 'DOSESPOT_SUBSCRIPTION_KEY', valueString: 'test-subscription-key' },
        { name: 'DOSESPOT_BASE_URL', valueString: doseSpot.baseUrl },
      ],
    },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);

  clinician = await clinicianMember();
  const membership = await http<any>('GET', `fhir/R4/ProjectMembership/${clinician.membership.id}`, {
    token: owner.tokens.access_token,
  });
  const withId = await http<any>('PUT', `fhir/R4/ProjectMembership/${clinician.membership.id}`, {
    token: owner.tokens.access_token,
    body: { ...membership.body, identifier: [{ system: 'https://dosespot.com/clinician-id', value: clinicianId }] },
  });
  expect(withId.status, JSON.stringify(withId.body)).toBe(200);
  noDoseSpotId = await clinicianMember();

  const patient = await http<any>('POST', 'fhir/R4/Patient', {
    token: clinician.token,
    body: {
      resourceType: 'Patient',
      name: [{ use: 'official', given: ['Rosa', 'Maria'], family: 'Delgado' }],
      birthDate: '1961-04-12',
      gender: 'female',
      address: [{ use: 'home', line: ['12 Elm Street'], city: 'Springfield', state: 'IL', postalCode: '62704' }],
      telecom: [{ system: 'phone', use: 'mobile', value: '(217) 555-0142' }],
    },
  });
  expect(patient.status).toBe(201);
  patientId = patient.body.id;
}, 120_000);

afterAll(async () => {
  await doseSpot?.close();
});

describe('DoseSpot bots through the real server and sandbox', () => {
  it('run under their own least-privilege policy: read memberships, read and update Patients', async () => {
    const bots = await http<any>('GET', 'fhir/R4/Bot?_count=10', { token: owner.tokens.access_token });
    expect(bots.body.entry).toHaveLength(3);
    for (const { resource: bot } of bots.body.entry) {
      // Only the sandbox's globals: no Node module system or Buffer in the shipped scripts.
      expect(bot.code).not.toMatch(/\bBuffer\b|\brequire\(|\bprocess\./);
      const found = await http<any>('GET', `fhir/R4/ProjectMembership?profile=Bot/${bot.id}`, {
        token: owner.tokens.access_token,
      });
      expect(found.body.entry).toHaveLength(1);
      const policyRef = found.body.entry[0].resource.accessPolicy?.reference;
      expect(policyRef).toMatch(/^AccessPolicy\//);
      const policy = await http<any>('GET', `fhir/R4/${policyRef}`, { token: owner.tokens.access_token });
      expect(policy.body.resource).toEqual([
        { resourceType: 'ProjectMembership', readonly: true },
        { resourceType: 'Patient' },
      ]);
    }
  });

  it('syncs the patient into DoseSpot and writes the DoseSpot id back on the Patient, then updates in place', async () => {
    const first = await execute(clinician.token, 'dosespot-patient-sync-bot', { patientId });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ configured: true, doseSpotPatientId: expect.any(Number) });
    const doseSpotId = first.body.doseSpotPatientId;
    expect(doseSpot.patients.get(doseSpotId)).toMatchObject({
      FirstName: 'Rosa',
      MiddleName: 'Maria',
      LastName: 'Delgado',
      Gender: 'Female',
      PrimaryPhone: '2175550142',
      PrimaryPhoneType: 'Cell',
      ZipCode: '62704',
    });
    const patient = await http<any>('GET', `fhir/R4/Patient/${patientId}`, { token: clinician.token });
    expect(patient.body.identifier).toEqual([{ system: 'https://dosespot.com/patient-id', value: String(doseSpotId) }]);

    const second = await execute(clinician.token, 'dosespot-patient-sync-bot', { patientId });
    expect(second.body).toEqual({ configured: true, doseSpotPatientId: doseSpotId });
    expect(doseSpot.patients.size).toBe(1);
    expect(
      doseSpot.requests.some((request) => request.method === 'PUT' && request.path.endsWith(`/${doseSpotId}`)),
    ).toBe(true);
    expect(doseSpot.violations).toEqual([]);
  });

  it('answers a single sign-on URL the DoseSpot test server verifies, on the patient and on notifications', async () => {
    const onPatient = await execute(clinician.token, 'dosespot-iframe-bot', { patientId });
    expect(onPatient.status, JSON.stringify(onPatient.body)).toBe(200);
    const url = new URL(onPatient.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${doseSpot.baseUrl}LoginSingleSignOn.aspx`);
    expect(url.searchParams.get('SingleSignOnUserId')).toBe(clinicianId);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Signed in as clinician ${clinicianId} on patient`);

    const notifications = await execute(clinician.token, 'dosespot-iframe-bot', {});
    const notificationsPage = await fetch(notifications.body.url);
    expect(notificationsPage.status).toBe(200);
    expect(await notificationsPage.text()).toContain('(notifications)');
    expect(doseSpot.violations).toEqual([]);
  });

  it('answers the clinician’s four notification counts', async () => {
    const answer = await execute(clinician.token, 'dosespot-notification-counts-bot');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ configured: true, ...counts });
    expect(doseSpot.violations).toEqual([]);
  });

  it('tells a member without a DoseSpot clinician id so, and calls DoseSpot for nothing', async () => {
    const before = doseSpot.requests.length;
    for (const identifier of ['dosespot-notification-counts-bot', 'dosespot-iframe-bot', 'dosespot-patient-sync-bot']) {
      const answer = await execute(noDoseSpotId.token, identifier, { patientId });
      expect(answer.status).toBe(400);
      expect(answer.body.issue[0].details.text).toMatch(/has no DoseSpot clinician id on their membership/);
    }
    expect(doseSpot.requests.length).toBe(before);
  });

  it('says what is wrong with a bad patient id, and the bot cannot be pointed at another project’s patient', async () => {
    const bad = await execute(clinician.token, 'dosespot-patient-sync-bot', { patientId: '../Observation' });
    expect(bad.status).toBe(400);
    expect(bad.body.issue[0].details.text).toMatch(/patientId must be a FHIR id/);
    const stranger = await registerProjectOwner('Foreign Clinic');
    const foreign = await http<any>('POST', 'fhir/R4/Patient', {
      token: stranger.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Foreign' }] },
    });
    const crossed = await execute(clinician.token, 'dosespot-patient-sync-bot', { patientId: foreign.body.id });
    expect(crossed.status).toBe(400);
    expect(crossed.body.issue[0].details.text).toMatch(/not found|Not found/i);
  });

  it('cannot be run by a project admin of another project', async () => {
    const stranger = await registerProjectOwner('Other DoseSpot Clinic');
    const byIdentifier = await execute(stranger.tokens.access_token, 'dosespot-notification-counts-bot');
    expect(byIdentifier.status).toBe(404);
    const bots = await http<any>('GET', 'fhir/R4/Bot?_count=10', { token: owner.tokens.access_token });
    for (const { resource: bot } of bots.body.entry) {
      const byId = await http<any>('POST', `fhir/R4/Bot/${bot.id}/$execute`, {
        token: stranger.tokens.access_token,
        body: { patientId },
        headers: { 'content-type': 'application/json' },
      });
      expect([403, 404]).toContain(byId.status);
    }
    const patient = await http<any>('GET', `fhir/R4/Patient/${patientId}`, { token: clinician.token });
    expect(patient.body.identifier).toHaveLength(1);
  });
});
