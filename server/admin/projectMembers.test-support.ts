import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { uniqueEmail } from '../../tests/integration/accounts';
import { signIn } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
export interface Member {
  email: string;
  token: string;
  membership: Record<string, any>;
}

/**
 * A member of the project administered by `adminToken`, added through the invitation endpoint
 * with a password (no e-mail), under `policy` (an AccessPolicy body) when given, and signed in.
 */
export async function inviteMember(
  adminToken: string,
  projectId: string,
  options: { policy?: Record<string, unknown>; admin?: boolean; resourceType?: string } = {},
): Promise<Member> {
  const email = uniqueEmail('member');
  const password = `member-${randomUUID()}`;
  let accessPolicy: { reference: string } | undefined;
  if (options.policy) {
    const created = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: adminToken,
      body: { resourceType: 'AccessPolicy', name: 'member policy', ...options.policy },
    });
    expect(created.status).toBe(201);
    accessPolicy = { reference: `AccessPolicy/${created.body.id}` };
  }
  const invited = await http<any>('POST', `admin/projects/${projectId}/invite`, {
    token: adminToken,
    headers: { 'content-type': 'application/json' },
    body: {
      resourceType: options.resourceType ?? 'Practitioner',
      firstName: 'Member',
      lastName: email.split('@')[0],
      email,
      password,
      sendEmail: false,
      admin: options.admin ?? false,
      ...(accessPolicy ? { accessPolicy } : {}),
    },
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  return { email, token: (await signIn(baseUrl(), email, password)).access_token, membership: invited.body };
}
