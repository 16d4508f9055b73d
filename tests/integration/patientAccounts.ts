import { baseUrl, http } from './fhirClient';
import { postJson, registerProjectOwner, registerUser, uniqueEmail } from './accounts';
import { exchangeCode, pkcePair } from './signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** A project that lets patients register (their policy: their own compartment), with its owner. */
export async function clinicWithPatientRegistration(name = 'Files Clinic') {
  const owner = await registerProjectOwner(name);
  const token = owner.tokens.access_token;
  const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
    token,
    body: {
      resourceType: 'AccessPolicy',
      name: 'Patients',
      resource: [{ resourceType: '*', compartment: { reference: '%profile' } }],
    },
  });
  const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`, { token });
  await http('PUT', `fhir/R4/Project/${owner.projectId}`, {
    token,
    body: { ...project.body, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.body.id}` } },
  });
  return owner;
}

/** A patient who registers in the project: their token and their Patient reference. */
export async function registerPatient(projectId: string) {
  const { verifier, challenge } = pkcePair();
  const login = await registerUser(uniqueEmail('patient'), 'patient password 1', challenge);
  const registered = await postJson('auth/newpatient', { login, projectId });
  const tokens = await exchangeCode(baseUrl(), registered.body.code, verifier);
  return { token: tokens.access_token as string, patient: tokens.profile.reference as string };
}
