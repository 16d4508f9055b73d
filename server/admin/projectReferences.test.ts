import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { inviteMember } from './projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * `POST /admin/projects/{id}/members/{membershipId}` writes as the server, so it applies the rule
 * the repository applies to callers itself: every reference it adds points into the project,
 * including the `%patient`-style parameters of access entries.
 */
describe('references a member edit adds stay in the project', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let other: Awaited<ReturnType<typeof registerProjectOwner>>;
  let policyId: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('References Clinic');
    other = await registerProjectOwner('References Elsewhere');
    const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'AccessPolicy',
        name: 'One patient',
        resource: [{ resourceType: 'Patient', criteria: 'Patient?_id=%patient.id' }],
      },
    });
    policyId = policy.body.id;
  });

  const entry = (patientId: string) => ({
    policy: { reference: `AccessPolicy/${policyId}` },
    parameter: [{ name: 'patient', valueReference: { reference: `Patient/${patientId}` } }],
  });

  it("refuses an access parameter naming another project's resource, and keeps one already stored", async () => {
    const token = owner.tokens.access_token;
    const member = await inviteMember(token, owner.projectId);
    const theirs = await http<any>('POST', 'fhir/R4/Patient', {
      token: other.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Theirs' }] },
    });
    const path = `admin/projects/${owner.projectId}/members/${member.membership.id}`;
    const before = (await http<any>('GET', path, { token })).body;
    const refused = await http<any>('POST', path, { token, body: { ...before, access: [entry(theirs.body.id)] } });
    expect(refused.status).toBe(400);
    expect(issueExpressions(refused.body)).toEqual(['ProjectMembership.access[0].parameter[0].valueReference']);
    expect((await http<any>('GET', path, { token })).body.meta.versionId).toBe(before.meta.versionId);

    const ours = await http<any>('POST', 'fhir/R4/Patient', {
      token,
      body: { resourceType: 'Patient', name: [{ family: 'Ours' }] },
    });
    const saved = await http<any>('POST', path, { token, body: { ...before, access: [entry(ours.body.id)] } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // A stored reference whose target was deleted since stays: other fields can still be edited.
    expect((await http('DELETE', `fhir/R4/Patient/${ours.body.id}`, { token })).status).toBe(200);
    const again = await http<any>('POST', path, { token, body: { ...saved.body, externalId: 'ext-1' } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });
});
