import { MedplumClient } from '@medplum/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { postJson, registerUser, uniqueEmail } from '../../tests/integration/accounts';
import { clinicWithPatientRegistration } from '../../tests/integration/patientAccounts';
import { exchangeCode, pkcePair } from '../../tests/integration/signIn';
import { appTokens } from './tokenEndpoint.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- auth and FHIR answers are free-form JSON */

/**
 * Outside review: a SMART app's patient token with `launch/patient patient/Observation.rs` got
 * from `GET auth/me` the whole Patient (SSN, address, telephone, birth date), the User's e-mail,
 * the membership and the access policy — while `GET fhir/R4/Patient/{id}` with the same token was
 * 403. A token narrowed by SMART resource scopes now gets only what its scopes allow; the web app's
 * own session (no resource scopes) gets the whole answer as before.
 */
describe('auth/me for a token narrowed by SMART scopes', () => {
  const password = 'patient password 1';
  const ssn = '123-45-6789';
  const redirectUri = 'https://scoped-app.example/cb';
  let email: string;
  let patientRef: string;
  let ownSession: string;
  let clientId: string;

  beforeAll(async () => {
    const clinic = await clinicWithPatientRegistration('Scoped Me Clinic');
    email = uniqueEmail('scoped-patient');
    const { verifier, challenge } = pkcePair();
    const login = await registerUser(email, password, challenge);
    const registered = await postJson('auth/newpatient', { login, projectId: clinic.projectId });
    const tokens = await exchangeCode(baseUrl(), registered.body.code, verifier);
    ownSession = tokens.access_token;
    patientRef = tokens.profile.reference;
    // The clinic records what a patient's chart holds.
    const ownerToken = clinic.tokens.access_token;
    const patient = await http<any>('GET', `fhir/R4/${patientRef}`, { token: ownerToken });
    const updated = await http<any>('PUT', `fhir/R4/${patientRef}`, {
      token: ownerToken,
      body: {
        ...patient.body,
        identifier: [{ system: 'http://hl7.org/fhir/sid/us-ssn', value: ssn }],
        birthDate: '1971-02-03',
        address: [{ line: ['12 Secret Lane'], city: 'Hiddenville' }],
        telecom: [{ system: 'phone', value: '+1-555-0199' }],
      },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: ownerToken,
      body: { resourceType: 'ClientApplication', name: 'Observation viewer', redirectUri },
    });
    expect(client.status).toBe(201);
    clientId = client.body.id;
  });

  /** The patient signs in to the app and allows `scope` (password, consent, code, token). */
  async function appToken(scope: string) {
    const { verifier, challenge } = pkcePair();
    let step = await postJson('auth/login', {
      email,
      password,
      clientId,
      redirectUri,
      scope,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    if (step.body.scopes) step = await postJson('auth/scope', { login: step.body.login, scope });
    expect(typeof step.body.code, JSON.stringify(step.body)).toBe('string');
    return appTokens({ code: step.body.code, verifier }, { clientId, redirectUri });
  }

  it('answers a patient/Observation.rs token without the Patient, the e-mail or the policy', async () => {
    const tokens = await appToken('launch/patient patient/Observation.rs');
    const token = tokens.access_token;
    // The FHIR API refuses this token the Patient …
    expect((await http('GET', `fhir/R4/${patientRef}`, { token })).status).toBe(403);
    // … and so does auth/me now: the profile is named, not shown.
    const me = await http<any>('GET', 'auth/me', { token });
    expect(me.status).toBe(200);
    const [type, id] = patientRef.split('/');
    expect(me.body.profile).toEqual({ resourceType: type, id });
    const text = JSON.stringify(me.body);
    for (const secret of [ssn, '1971-02-03', 'Secret Lane', '555-0199', email]) expect(text).not.toContain(secret);
    expect(me.body.accessPolicy).toBeUndefined();
    expect(me.body.config).toBeUndefined();
    expect(me.body.security).toBeUndefined();
    expect(me.body.user).toEqual({ resourceType: 'User', id: expect.any(String) });
    expect(Object.keys(me.body.membership).sort()).toEqual(['id', 'profile', 'project', 'resourceType']);
    expect(me.body.membership.profile.reference).toBe(patientRef);
    expect(Object.keys(me.body.project).sort()).toEqual(['id', 'name', 'resourceType']);
  });

  it('shows the profile when the scopes allow reading it, and the e-mail with the email scope', async () => {
    const tokens = await appToken('openid email launch/patient patient/Patient.rs patient/Observation.rs');
    const me = await http<any>('GET', 'auth/me', { token: tokens.access_token });
    expect(me.status).toBe(200);
    expect(me.body.profile.identifier?.[0]?.value).toBe(ssn);
    expect(me.body.user.email).toBe(email);
    expect(me.body.accessPolicy).toBeUndefined();
  });

  it("keeps the web app's own session whole (profile, policy, sessions)", async () => {
    const me = await http<any>('GET', 'auth/me', { token: ownSession });
    expect(me.status).toBe(200);
    expect(me.body.profile.identifier?.[0]?.value).toBe(ssn);
    expect(me.body.user.email).toBe(email);
    expect(me.body.accessPolicy?.resourceType).toBe('AccessPolicy');
    expect(me.body.membership.accessPolicy).toBeDefined();
    expect(me.body.security.sessions.length).toBeGreaterThan(0);
  });

  it("lets Medplum's client sign in with such a token (it reads profile.id from auth/me)", async () => {
    const tokens = await appToken('launch/patient patient/Observation.rs');
    const medplum = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
    await medplum.setActiveLogin({
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token as string,
      profile: tokens.profile,
      project: tokens.project,
    });
    expect(medplum.getProfile()).toEqual({ resourceType: 'Patient', id: patientRef.split('/')[1] });
    expect(medplum.getProject()?.id).toBe(tokens.project.reference.split('/')[1]);
    expect(medplum.getAccessPolicy()).toBeUndefined();
  });
});
