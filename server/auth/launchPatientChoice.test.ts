import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, tokenRequest } from '../../tests/integration/accounts';
import { pkcePair } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const redirectUri = 'https://standalone-app.example/cb';

/**
 * SMART standalone launch by a clinician: an app asks for `launch/patient` without an EHR launch,
 * so the consent step asks which patient, among those the clinician may open. The attacks
 * replayed: a patient of another project, a patient the person's access policy hides, and the
 * patient search on a login that asked for no patient.
 */
describe('a clinician chooses the patient of a standalone SMART launch', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let other: Awaited<ReturnType<typeof registerProjectOwner>>;
  let clientId: string;
  let ours: string;
  let theirs: string;

  const createPatient = async (token: string, family: string, given: string, extra: Record<string, unknown> = {}) =>
    (
      await http<any>('POST', 'fhir/R4/Patient', {
        token,
        body: {
          resourceType: 'Patient',
          name: [{ given: [given], family }],
          birthDate: '1980-02-03',
          gender: 'female',
          ...extra,
        },
      })
    ).body.id as string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Standalone Clinic');
    other = await registerProjectOwner('Other Standalone Clinic');
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Growth charts', redirectUri },
    });
    clientId = client.body.id;
    ours = await createPatient(owner.tokens.access_token, 'Quillfeather', 'Nora', {
      identifier: [{ system: 'urn:standalone-clinic:mrn', value: 'QF7781' }],
    });
    await createPatient(owner.tokens.access_token, 'Quillon', 'Ada', { birthDate: '1991-07-12' });
    theirs = await createPatient(other.tokens.access_token, 'Quillfeather', 'Elsewhere', {
      identifier: [{ system: 'urn:other-clinic:mrn', value: 'QF7781' }],
      birthDate: '1991-07-12',
    });
  });

  async function startStandalone(
    scope = 'openid launch/patient patient/*.read',
    account: { email: string; password: string } = owner,
  ) {
    const { verifier, challenge } = pkcePair();
    const start = await postJson('auth/login', {
      email: account.email,
      password: account.password,
      clientId,
      redirectUri,
      scope,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(start.status).toBe(200);
    return { login: start.body.login as string, body: start.body, verifier };
  }

  /** The app's side: the code of the scope step exchanged for tokens, which must be granted. */
  async function redeem(code: unknown, verifier: string) {
    expect(typeof code).toBe('string');
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: code as string,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
    });
    expect(tokens.status).toBe(200);
    return tokens.body;
  }

  const patientsFor = (login: string, text: string) =>
    http<any>('GET', `auth/login/${login}/patients?text=${encodeURIComponent(text)}`, { token: null });

  it('asks for a patient, lists only this project’s, and gives the app a token about the one chosen', async () => {
    const { login, body, verifier } = await startStandalone();
    expect(body.scopes).toEqual(['launch/patient', 'patient/*.read']);
    expect(body.patientChoice).toBe(true);

    const found = await patientsFor(login, 'Quillf');
    expect(found.status).toBe(200);
    expect(found.body.patients).toEqual([
      { id: ours, name: 'Nora Quillfeather', birthDate: '1980-02-03', gender: 'female' },
    ]);
    expect((await patientsFor(login, 'Quill')).body.patients.map((p: any) => p.name)).toEqual([
      'Nora Quillfeather',
      'Ada Quillon',
    ]);
    // By record number and by birth date too: this project's patient only, though another's shares both.
    expect((await patientsFor(login, 'QF7781')).body.patients.map((p: any) => p.id)).toEqual([ours]);
    expect((await patientsFor(login, '1991-07-12')).body.patients.map((p: any) => p.name)).toEqual(['Ada Quillon']);
    expect((await patientsFor(login, 'QF0000')).body.patients).toEqual([]);
    const badDate = await patientsFor(login, '1991-13-45');
    expect(badDate.status).toBe(400);
    expect(issueText(badDate.body)).toBe('Invalid date value "1991-13-45" for search parameter "birthdate"');

    const missing = await postJson('auth/scope', { login, scope: 'launch/patient patient/*.read' });
    expect(missing.status).toBe(400);
    expect(issueExpressions(missing.body)).toEqual(['patient']);
    expect(issueText(missing.body)).toBe('Choose the patient the application is about');

    const chosen = await postJson('auth/scope', { login, scope: 'launch/patient patient/*.read', patient: ours });
    const tokens = await redeem(chosen.body.code, verifier);
    expect(tokens.patient).toBe(ours);
    const read = await http<any>('GET', `fhir/R4/Patient/${ours}`, { token: tokens.access_token });
    expect(read.status).toBe(200);
  });

  it('refuses a patient of another project, or made up, with the same message, and saves no launch', async () => {
    const { login } = await startStandalone();
    const launchesBefore = (await http<any>('GET', 'fhir/R4/SmartAppLaunch?_summary=count')).body.total;
    for (const patient of [theirs, 'no-such-patient', '../Patient/x']) {
      const refused = await postJson('auth/scope', { login, scope: 'launch/patient patient/*.read', patient });
      expect(refused.status, patient).toBe(400);
      expect(issueExpressions(refused.body)).toEqual(['patient']);
      expect(issueText(refused.body)).toBe('Patient not found');
    }
    expect((await patientsFor(login, 'Elsewhere')).body.patients).toEqual([]);
    expect((await http<any>('GET', 'fhir/R4/SmartAppLaunch?_summary=count')).body.total).toBe(launchesBefore);
  });

  it('asks no patient when launch/patient is unticked, or was not asked for', async () => {
    const unticked = await startStandalone();
    const answer = await postJson('auth/scope', { login: unticked.login, scope: 'patient/*.read' });
    expect(typeof answer.body.code).toBe('string');

    const { login, body } = await startStandalone('openid user/Patient.read');
    expect(body.patientChoice).toBeUndefined();
    const search = await patientsFor(login, 'Quill');
    expect(search.status).toBe(400);
    expect(issueExpressions(search.body)).toEqual(['login']);
    const named = await postJson('auth/scope', { login, scope: 'user/Patient.read', patient: ours });
    expect(named.status).toBe(400);
    expect(issueExpressions(named.body)).toEqual(['patient']);
  });

  it('lists and accepts only the patients the person’s access policy lets them see', async () => {
    // A member whose policy reads only Patients with a given family name.
    const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'AccessPolicy',
        name: 'Only the Quillons',
        resource: [{ resourceType: 'Patient', criteria: 'Patient?family=Quillon' }],
      },
    });
    expect(policy.status).toBe(201);
    const email = `restricted-${Date.now()}@test.example`;
    const invited = await http<any>('POST', `admin/projects/${owner.projectId}/invite`, {
      token: owner.tokens.access_token,
      headers: { 'content-type': 'application/json' },
      body: {
        resourceType: 'Practitioner',
        firstName: 'Res',
        lastName: 'Tricted',
        email,
        password: 'restricted password 1',
        sendEmail: false,
        accessPolicy: { reference: `AccessPolicy/${policy.body.id}` },
      },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const { login, body } = await startStandalone(undefined, { email, password: 'restricted password 1' });
    expect(body.patientChoice).toBe(true);
    expect((await patientsFor(login, 'Quill')).body.patients.map((p: any) => p.name)).toEqual(['Ada Quillon']);
    const hidden = await postJson('auth/scope', { login, scope: 'launch/patient patient/*.read', patient: ours });
    expect(hidden.status).toBe(400);
    expect(issueText(hidden.body)).toBe('Patient not found');
  });

  it('never asks a patient signing in as themselves: the launch is about their own record', async () => {
    const email = `patient-${Date.now()}@test.example`;
    const invited = await http<any>('POST', `admin/projects/${owner.projectId}/invite`, {
      token: owner.tokens.access_token,
      headers: { 'content-type': 'application/json' },
      body: {
        resourceType: 'Patient',
        firstName: 'Pia',
        lastName: 'Quillfeather',
        email,
        password: 'patient password 1',
        sendEmail: false,
      },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const own = String(invited.body.profile.reference).replace('Patient/', '');
    const { login, body, verifier } = await startStandalone(undefined, { email, password: 'patient password 1' });
    expect(body.patientChoice).toBeUndefined();
    // No picker to search with, and no other patient to name.
    const search = await patientsFor(login, 'Quill');
    expect(search.status).toBe(400);
    expect(issueExpressions(search.body)).toEqual(['login']);
    const named = await postJson('auth/scope', { login, scope: 'launch/patient patient/*.read', patient: ours });
    expect(named.status).toBe(400);
    expect(issueExpressions(named.body)).toEqual(['patient']);

    const granted = await postJson('auth/scope', { login, scope: 'launch/patient patient/*.read' });
    const tokens = await redeem(granted.body.code, verifier);
    expect(tokens.patient).toBe(own);
    const elsewhere = await http<any>('GET', `fhir/R4/Patient/${ours}`, { token: tokens.access_token });
    expect(elsewhere.status).not.toBe(200);
  });

  it('keeps a sign-in started for a project out of that project’s reach: its id opens the picker', async () => {
    const email = `named-project-${Date.now()}@test.example`;
    const invited = await http<any>('POST', `admin/projects/${owner.projectId}/invite`, {
      token: owner.tokens.access_token,
      headers: { 'content-type': 'application/json' },
      body: {
        resourceType: 'Practitioner',
        firstName: 'Nam',
        lastName: 'Edproject',
        email,
        password: 'named project password 1',
        sendEmail: false,
      },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const { challenge } = pkcePair();
    const start = await postJson('auth/login', {
      email,
      password: 'named project password 1',
      clientId,
      redirectUri,
      projectId: owner.projectId,
      scope: 'openid launch/patient patient/*.read',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(start.body.patientChoice).toBe(true);
    // The project's admin (or a member whose policy grants `*`) looks for sign-ins in progress.
    const read = await http('GET', `fhir/R4/Login/${start.body.login}`, { token: owner.tokens.access_token });
    expect(read.status).toBe(404);
    const search = await http<any>('GET', 'fhir/R4/Login?_count=100', { token: owner.tokens.access_token });
    expect((search.body.entry ?? []).map((entry: any) => entry.resource.id)).not.toContain(start.body.login);
  });
});
