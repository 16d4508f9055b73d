import { expect, inject } from 'vitest';
import { baseUrl, http } from './fhirClient';
import { registerUser, uniqueEmail } from './accounts';
import { pkcePair, signIn } from './signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * A new member of a project under a new AccessPolicy (`policy` holds its `resource` list), signed
 * in: its email, password, policy and token. `ownerToken` is a project admin's; the membership
 * itself is made by the super admin, the only one who may attach a User through ProjectMembership
 * (project admins invite).
 */
export async function memberUnderPolicy(projectId: string, ownerToken: string, policy: Record<string, unknown>) {
  const email = uniqueEmail('policy-member');
  const password = 'member password 1';
  await registerUser(email, password, pkcePair().challenge);
  const post = (path: string, body: unknown, token = ownerToken) =>
    http<any>('POST', `fhir/R4/${path}`, { token, body });
  const user = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
  const practitioner = await post('Practitioner', { resourceType: 'Practitioner', name: [{ family: 'Member' }] });
  const accessPolicy = await post('AccessPolicy', { resourceType: 'AccessPolicy', name: 'member policy', ...policy });
  const membership = await post(
    'ProjectMembership',
    {
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${projectId}` },
      user: { reference: `User/${user.body.entry[0].resource.id}` },
      profile: { reference: `Practitioner/${practitioner.body.id}` },
      accessPolicy: { reference: `AccessPolicy/${accessPolicy.body.id}` },
    },
    inject('adminToken'),
  );
  expect(membership.status).toBe(201);
  const token = (await signIn(baseUrl(), email, password)).access_token as string;
  return { email, password, policy: accessPolicy.body, token };
}
