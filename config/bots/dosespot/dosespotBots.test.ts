import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Patient, ProjectMembership, Resource } from '@medplum/fhirtypes';
import { startDoseSpotTestServer, type DoseSpotTestServer } from '../../../tests/integration/dosespotTestServer';
import type { BotClient, BotEvent } from './botContext';
import { bundleDoseSpotBots } from './bundleDoseSpotBots';
import { DOSESPOT_PATIENT_ID_SYSTEM } from './dosespotBotIds';
import { ssoCode, ssoUserIdVerify } from './dosespotSso';
import { handler as iframeBot } from './iframeBot';
import { handler as countsBot } from './notificationCountsBot';
import { handler as syncBot } from './patientSyncBot';

const clinic = { clinicId: '1234', clinicKey: 'CLINICKEY-abc-123', subscriptionKey: 'sub-key-789' };
const counts = {
  PendingPrescriptionsCount: 2,
  PendingRxChangeCount: 1,
  RefillRequestsCount: 3,
  TransactionErrorsCount: 4,
};

let doseSpot: DoseSpotTestServer;

/** The bot's view of the FHIR server: a patient and the clinicians' memberships, in memory. */
class MemoryBotClient implements BotClient {
  patients = new Map<string, Patient>();
  memberships: ProjectMembership[] = [];
  updates: Resource[] = [];
  async readResource(_type: 'Patient', id: string): Promise<Patient> {
    const patient = this.patients.get(id);
    if (!patient) throw new Error('Not found');
    return structuredClone(patient);
  }
  async updateResource<T extends Resource>(resource: T): Promise<T> {
    this.updates.push(resource);
    if (resource.resourceType === 'Patient') this.patients.set(resource.id as string, resource as Patient);
    return resource;
  }
  async searchOne(_type: 'ProjectMembership', query: Record<string, string> | string) {
    const profile = typeof query === 'string' ? new URLSearchParams(query).get('profile') : query.profile;
    return this.memberships.find((membership) => membership.profile?.reference === profile);
  }
}

function secrets(baseUrl: string, omit: string[] = []) {
  const all: Record<string, string> = {
    DOSESPOT_CLINIC_ID: clinic.clinicId,
    DOSESPOT_CLINIC_KEY: clinic.clinicKey,
    DOSESPOT_SUBSCRIPTION_KEY: clinic.subscriptionKey,
    DOSESPOT_BASE_URL: baseUrl,
  };
  return Object.fromEntries(
    Object.entries(all)
      .filter(([name]) => !omit.includes(name))
      .map(([name, valueString]) => [name, { name, valueString }]),
  );
}

let medplum: MemoryBotClient;
const alice = { reference: 'Practitioner/alice' };
const event = (input: unknown, extra: Partial<BotEvent> = {}): BotEvent => ({
  input,
  secrets: secrets(doseSpot.baseUrl),
  requester: alice,
  ...extra,
});

beforeAll(async () => {
  doseSpot = await startDoseSpotTestServer({ ...clinic, clinicians: { '304015': counts } });
});
afterAll(() => doseSpot.close());

beforeEach(() => {
  doseSpot.violations.length = 0;
  doseSpot.requests.length = 0;
  medplum = new MemoryBotClient();
  medplum.memberships.push({
    resourceType: 'ProjectMembership',
    project: { reference: 'Project/p' },
    user: { reference: 'User/alice' },
    profile: alice,
    identifier: [{ system: 'https://dosespot.com/clinician-id', value: '304015' }],
  } as ProjectMembership);
  medplum.patients.set('pat-1', {
    resourceType: 'Patient',
    id: 'pat-1',
    name: [{ given: ['Maria', 'Elena'], family: 'Lopez' }],
    birthDate: '1971-04-02',
    gender: 'female',
    address: [{ use: 'home', line: ['12 Elm Street'], city: 'Boston', state: 'MA', postalCode: '02118' }],
    telecom: [
      { system: 'phone', use: 'mobile', value: '(617) 617-0143' },
      { system: 'email', value: 'maria@example.org' },
    ],
  });
});

describe('DoseSpot bots against the DoseSpot test server', () => {
  it('patient sync adds the patient, writes the DoseSpot id back, then updates on the next sync', async () => {
    const first = await syncBot(medplum, event({ patientId: 'pat-1' }));
    expect(first).toMatchObject({ configured: true, doseSpotPatientId: 1000 });
    const saved = medplum.patients.get('pat-1') as Patient;
    expect(saved.identifier).toContainEqual({ system: DOSESPOT_PATIENT_ID_SYSTEM, value: '1000' });
    expect(doseSpot.patients.get(1000)).toMatchObject({
      FirstName: 'Maria',
      MiddleName: 'Elena',
      LastName: 'Lopez',
      Gender: 'Female',
      ZipCode: '02118',
      PrimaryPhone: '6176170143',
      PrimaryPhoneType: 'Cell',
      Active: true,
    });
    await syncBot(medplum, event({ patientId: 'pat-1' }));
    expect(doseSpot.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /webapi/v2/connect/token',
      'POST /webapi/v2/api/patients',
      'POST /webapi/v2/connect/token',
      'PUT /webapi/v2/api/patients/1000',
    ]);
    expect(doseSpot.violations).toEqual([]);
  });

  it('the iframe URL signs the clinician in on the patient, and the SSO code verifies', async () => {
    const synced = await syncBot(medplum, event({ patientId: 'pat-1' }));
    if (!synced.configured) throw new Error('not configured');
    const answer = await iframeBot(medplum, event({ patientId: 'pat-1' }));
    if (!answer.configured) throw new Error('not configured');
    const url = new URL(answer.url);
    expect(url.origin + url.pathname).toBe(`${doseSpot.baseUrl}LoginSingleSignOn.aspx`);
    expect(url.searchParams.get('SingleSignOnUserId')).toBe('304015');
    expect(url.searchParams.get('PatientId')).toBe(String(synced.doseSpotPatientId));
    const page = await fetch(answer.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Signed in as clinician 304015 on patient ${synced.doseSpotPatientId}`);
    expect(doseSpot.violations).toEqual([]);
  });

  it('without a patient the iframe opens the clinician notifications (RefillsErrors=1)', async () => {
    const answer = await iframeBot(medplum, event({}));
    if (!answer.configured) throw new Error('not configured');
    expect(new URL(answer.url).searchParams.get('RefillsErrors')).toBe('1');
    expect((await fetch(answer.url)).status).toBe(200);
    expect(doseSpot.violations).toEqual([]);
  });

  it('the test server refuses an SSO code made with the wrong clinic key', async () => {
    const phrase = 'A'.repeat(32);
    const url = new URL('LoginSingleSignOn.aspx', doseSpot.baseUrl);
    url.searchParams.set('SingleSignOnClinicId', clinic.clinicId);
    url.searchParams.set('SingleSignOnUserId', '304015');
    url.searchParams.set('SingleSignOnPhraseLength', '32');
    url.searchParams.set('SingleSignOnCode', await ssoCode(phrase, 'WRONG'));
    url.searchParams.set('SingleSignOnUserIdVerify', await ssoUserIdVerify('304015', phrase, clinic.clinicKey));
    url.searchParams.set('RefillsErrors', '1');
    expect((await fetch(url)).status).toBe(401);
    expect(doseSpot.violations).toEqual(['SSO: SingleSignOnCode does not verify']);
  });

  it('counts come from api/notifications/counts for the calling clinician', async () => {
    expect(await countsBot(medplum, event({}))).toEqual({ configured: true, ...counts });
    const call = doseSpot.requests.find((r) => r.path === '/webapi/v2/api/notifications/counts');
    expect(call?.headers.authorization).toMatch(/^Bearer /);
    expect(call?.headers['subscription-key']).toBe(clinic.subscriptionKey);
    expect(doseSpot.violations).toEqual([]);
  });

  it('says which secrets are missing instead of calling DoseSpot', async () => {
    const answer = await countsBot(
      medplum,
      event({}, { secrets: secrets(doseSpot.baseUrl, ['DOSESPOT_CLINIC_KEY', 'DOSESPOT_SUBSCRIPTION_KEY']) }),
    );
    expect(answer).toEqual({ configured: false, missing: ['DOSESPOT_CLINIC_KEY', 'DOSESPOT_SUBSCRIPTION_KEY'] });
    expect(doseSpot.requests).toEqual([]);
  });

  it('refuses a caller without a DoseSpot clinician id, and one DoseSpot does not know', async () => {
    await expect(countsBot(medplum, event({}, { requester: { reference: 'Practitioner/ben' } }))).rejects.toThrow(
      'Practitioner/ben has no DoseSpot clinician id',
    );
    await expect(countsBot(medplum, event({}, { requester: undefined }))).rejects.toThrow('no requester');
    medplum.memberships[0].identifier = [{ system: 'https://dosespot.com/clinician-id', value: '999' }];
    await expect(countsBot(medplum, event({}))).rejects.toThrow('DoseSpot sign-in: HTTP 400: Unknown user');
  });

  it('names what a patient lacks before DoseSpot would refuse them', async () => {
    medplum.patients.set('pat-2', {
      resourceType: 'Patient',
      id: 'pat-2',
      name: [{ given: ['No'], family: 'Address' }],
    });
    await expect(syncBot(medplum, event({ patientId: 'pat-2' }))).rejects.toThrow(
      "DoseSpot needs the patient's birth date, address line, city, state, postal code, a 10-digit phone number",
    );
    await expect(syncBot(medplum, event({ patientId: '../Project/x' }))).rejects.toThrow('patientId must be a FHIR id');
    expect(doseSpot.requests).toEqual([]);
  });

  it('the iframe refuses a patient not synced yet', async () => {
    await expect(iframeBot(medplum, event({ patientId: 'pat-1' }))).rejects.toThrow('is not in DoseSpot yet');
  });
});

describe('the SSO algorithm', () => {
  it('matches the guide: phrase + base64(SHA-512(phrase + key)) without trailing ==', async () => {
    const phrase = 'abcdefghijklmnopqrstuvwxyz012345';
    const digest = createHash('sha512').update(`${phrase}KEY`).digest('base64');
    expect(digest.endsWith('==')).toBe(true);
    expect(await ssoCode(phrase, 'KEY')).toBe(phrase + digest.slice(0, -2));
    const verify = createHash('sha512')
      .update(`42${phrase.slice(0, 22)}KEY`)
      .digest('base64');
    expect(await ssoUserIdVerify('42', phrase, 'KEY')).toBe(verify.replace(/==$/, ''));
  });
});

describe('the bundled bots', () => {
  it('run as sandbox scripts with only the contract globals', async () => {
    const bundles = await bundleDoseSpotBots();
    expect(bundles.map((bundle) => bundle.identifier)).toEqual([
      'dosespot-patient-sync-bot',
      'dosespot-iframe-bot',
      'dosespot-notification-counts-bot',
    ]);
    const run = async (code: string, botEvent: BotEvent) => {
      const exports: { handler?: (m: BotClient, e: BotEvent) => Promise<unknown> } = {};
      runInNewContext(code, {
        exports,
        fetch,
        crypto,
        TextEncoder,
        TextDecoder,
        btoa,
        atob,
        URL,
        URLSearchParams,
        console,
        setTimeout,
      });
      return (exports.handler as NonNullable<typeof exports.handler>)(medplum, botEvent);
    };
    const [sync, iframe, countsCode] = bundles.map((bundle) => bundle.code);
    await run(sync, event({ patientId: 'pat-1' }));
    const answer = (await run(iframe, event({ patientId: 'pat-1' }))) as { url: string };
    expect((await fetch(answer.url)).status).toBe(200);
    expect(await run(countsCode, event({}))).toEqual({ configured: true, ...counts });
    expect(doseSpot.violations).toEqual([]);
  });
});
