import { MedplumClient } from '@medplum/core';
import type { ProjectMembership } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueExpressions } from '../fhirClient';
import { registerProjectOwner } from '../accounts';
import { inviteMember } from '../../../server/admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- admin answers of many shapes */

/**
 * Issue 18: `GET/POST/DELETE /admin/projects/{id}/members/{membershipId}` as Medplum's member page
 * calls them (`medplum.get/post/delete` of @medplum/core), with the attacks replayed over HTTP.
 */

function medplumAs(token: string): MedplumClient {
  const client = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
  client.setAccessToken(token);
  return client;
}

async function membershipOf(token: string, id: string): Promise<ProjectMembership> {
  const answer = await http<any>('GET', `fhir/R4/ProjectMembership/${id}`, { token });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('/admin/projects/{id}/members/{membershipId}', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let intruder: Awaited<ReturnType<typeof registerProjectOwner>>;
  let medplum: MedplumClient;
  let ownerMembershipId: string;
  let policyId: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Members Clinic');
    intruder = await registerProjectOwner('Members Intruder');
    medplum = medplumAs(owner.tokens.access_token);
    const detail = await medplum.get(`admin/projects/${owner.projectId}`, { cache: 'no-cache' });
    ownerMembershipId = detail.members.find((member: any) => member.admin).id;
    const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: owner.tokens.access_token,
      body: { resourceType: 'AccessPolicy', name: 'Front desk', resource: [{ resourceType: 'Patient' }] },
    });
    policyId = policy.body.id;
  });

  it('reads a membership, gives it an access policy and the admin flag, and takes them back', async () => {
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    const read: ProjectMembership = await medplum.get(
      `admin/projects/${owner.projectId}/members/${member.membership.id}`,
      { cache: 'no-cache' },
    );
    expect(read.resourceType).toBe('ProjectMembership');
    expect(read.user?.reference).toBe(member.membership.user.reference);

    const updated: ProjectMembership = await medplum.post(`admin/projects/${owner.projectId}/members/${read.id}`, {
      ...read,
      accessPolicy: { reference: `AccessPolicy/${policyId}` },
      admin: true,
    });
    expect(updated.accessPolicy?.reference).toBe(`AccessPolicy/${policyId}`);
    expect(updated.admin).toBe(true);
    expect(updated.project.reference).toBe(`Project/${owner.projectId}`);
    // The member's own token now carries the admin rights the membership grants.
    const asAdmin = await http<any>('GET', `admin/projects/${owner.projectId}`, { token: member.token });
    expect(asAdmin.status).toBe(200);

    const back: ProjectMembership = await medplum.post(`admin/projects/${owner.projectId}/members/${read.id}`, {
      ...updated,
      admin: false,
      accessPolicy: undefined,
    });
    expect(back.admin).toBe(false);
    expect(back.accessPolicy).toBeUndefined();
    expect((await http<any>('GET', `admin/projects/${owner.projectId}`, { token: member.token })).status).toBe(403);
  });

  it('changes the profile to another Practitioner of the project, not to one of another project', async () => {
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    const practitioner = await http<any>('POST', 'fhir/R4/Practitioner', {
      token: owner.tokens.access_token,
      body: { resourceType: 'Practitioner', name: [{ family: 'Newprofile' }] },
    });
    const updated: ProjectMembership = await medplum.post(
      `admin/projects/${owner.projectId}/members/${member.membership.id}`,
      { ...member.membership, profile: { reference: `Practitioner/${practitioner.body.id}` } },
    );
    expect(updated.profile.reference).toBe(`Practitioner/${practitioner.body.id}`);

    const foreign = await http<any>('POST', 'fhir/R4/Practitioner', {
      token: intruder.tokens.access_token,
      body: { resourceType: 'Practitioner', name: [{ family: 'Elsewhere' }] },
    });
    const refused = await http<any>('POST', `admin/projects/${owner.projectId}/members/${member.membership.id}`, {
      token: owner.tokens.access_token,
      body: { ...updated, profile: { reference: `Practitioner/${foreign.body.id}` } },
    });
    expect(refused.status).toBe(400);
    expect(issueExpressions(refused.body)).toEqual(['ProjectMembership.profile']);
    expect((await membershipOf(owner.tokens.access_token, member.membership.id)).profile.reference).toBe(
      `Practitioner/${practitioner.body.id}`,
    );
  });

  it('refuses bad input with the field path and changes nothing', async () => {
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    const id = member.membership.id;
    const before = await membershipOf(owner.tokens.access_token, id);
    const foreignPolicy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: intruder.tokens.access_token,
      body: { resourceType: 'AccessPolicy', name: 'theirs', resource: [{ resourceType: '*' }] },
    });
    const cases: [unknown, string][] = [
      [[], 'ProjectMembership'],
      [{ ...before, resourceType: 'Patient' }, 'ProjectMembership.resourceType'],
      [{ ...before, id: ownerMembershipId }, 'ProjectMembership.id'],
      [{ ...before, admin: 'yes' }, 'ProjectMembership.admin'],
      [{ ...before, accessPolicy: { reference: 'not a reference' } }, 'ProjectMembership.accessPolicy'],
      [
        { ...before, accessPolicy: { reference: `AccessPolicy/${foreignPolicy.body.id}` } },
        'ProjectMembership.accessPolicy',
      ],
      [
        { ...before, access: [{ policy: { reference: `AccessPolicy/${foreignPolicy.body.id}` } }] },
        'ProjectMembership.access[0].policy',
      ],
      [{ ...before, profile: undefined }, 'ProjectMembership.profile'],
      [{ ...before, invitedBy: { reference: 'User/someone-else' } }, 'ProjectMembership.invitedBy'],
    ];
    for (const [body, path] of cases) {
      const answer = await http<any>('POST', `admin/projects/${owner.projectId}/members/${id}`, {
        token: owner.tokens.access_token,
        body,
      });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(issueExpressions(answer.body)).toEqual([path]);
    }
    const after = await membershipOf(owner.tokens.access_token, id);
    expect(after.meta?.versionId).toBe(before.meta?.versionId);
  });

  it("a project admin cannot move a membership into another project (the super admins') or onto another user", async () => {
    const superProject = (await http<any>('GET', 'fhir/R4/Project?_count=100')).body.entry
      .map((entry: any) => entry.resource)
      .find((project: any) => project.superAdmin === true);
    expect(superProject).toBeTruthy();
    const self = await membershipOf(owner.tokens.access_token, ownerMembershipId);
    for (const [body, path] of [
      [{ ...self, project: { reference: `Project/${superProject.id}` } }, 'ProjectMembership.project'],
      [{ ...self, project: { reference: `Project/${intruder.projectId}` } }, 'ProjectMembership.project'],
      [{ ...self, user: { reference: 'User/another-user' } }, 'ProjectMembership.user'],
    ] as const) {
      const answer = await http<any>('POST', `admin/projects/${owner.projectId}/members/${ownerMembershipId}`, {
        token: owner.tokens.access_token,
        body,
      });
      expect(answer.status).toBe(403);
      expect(issueExpressions(answer.body)).toEqual([path]);
    }
    const after = await membershipOf(owner.tokens.access_token, ownerMembershipId);
    expect(after.meta?.versionId).toBe(self.meta?.versionId);
    // The owner's token still belongs to an ordinary project: no super admin powers.
    const others = await http<any>('GET', `admin/projects/${intruder.projectId}`, { token: owner.tokens.access_token });
    expect(others.status).toBe(404);
  });

  it('the last admin cannot be demoted, deactivated or removed by a project admin; with a second admin they can', async () => {
    const self = await membershipOf(owner.tokens.access_token, ownerMembershipId);
    const admins = (await medplum.get(`admin/projects/${owner.projectId}`, { cache: 'no-cache' })).members.filter(
      (member: any) => member.admin,
    );
    expect(admins).toHaveLength(1);
    for (const body of [
      { ...self, admin: false },
      { ...self, active: false },
    ]) {
      const answer = await http<any>('POST', `admin/projects/${owner.projectId}/members/${ownerMembershipId}`, {
        token: owner.tokens.access_token,
        body,
      });
      expect(answer.status).toBe(400);
      expect(issueExpressions(answer.body)).toEqual(['ProjectMembership.admin']);
    }
    const removal = await http<any>('DELETE', `admin/projects/${owner.projectId}/members/${ownerMembershipId}`, {
      token: owner.tokens.access_token,
    });
    expect(removal.status).toBe(400);
    expect((await membershipOf(owner.tokens.access_token, ownerMembershipId)).meta?.versionId).toBe(
      self.meta?.versionId,
    );

    // A second admin: now the first may step down, and the second may remove them.
    const second = await inviteMember(owner.tokens.access_token, owner.projectId, { admin: true });
    const steppedDown: ProjectMembership = await medplum.post(
      `admin/projects/${owner.projectId}/members/${ownerMembershipId}`,
      { ...self, admin: false },
    );
    expect(steppedDown.admin).toBe(false);
    const removed = await medplumAs(second.token).delete(
      `admin/projects/${owner.projectId}/members/${ownerMembershipId}`,
    );
    expect(removed.resourceType).toBe('OperationOutcome');
    expect((await http<any>('GET', `fhir/R4/Patient`, { token: owner.tokens.access_token })).status).toBe(401);
    // The second admin is now the last one.
    const last = await http<any>('DELETE', `admin/projects/${owner.projectId}/members/${second.membership.id}`, {
      token: second.token,
    });
    expect(last.status).toBe(400);
  });
});

describe('/admin/projects/{id}/members/{membershipId}: who may call it', () => {
  it("another project's admin gets 404 and a plain member 403 for read, update and delete; nothing changes", async () => {
    const owner = await registerProjectOwner('Members Target');
    const intruder = await registerProjectOwner('Members Attacker');
    const victim = await inviteMember(owner.tokens.access_token, owner.projectId);
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    const path = `admin/projects/${owner.projectId}/members/${victim.membership.id}`;
    const before = await membershipOf(owner.tokens.access_token, victim.membership.id);
    const promote = { ...before, admin: true };
    for (const [token, status] of [
      [intruder.tokens.access_token, 404],
      [member.token, 403],
    ] as const) {
      expect((await http<any>('GET', path, { token })).status).toBe(status);
      expect((await http<any>('POST', path, { token, body: promote })).status).toBe(status);
      expect((await http<any>('DELETE', path, { token })).status).toBe(status);
    }
    // The intruder's own project in the address does not reach the victim's membership either.
    const sideways = `admin/projects/${intruder.projectId}/members/${victim.membership.id}`;
    expect((await http<any>('GET', sideways, { token: intruder.tokens.access_token })).status).toBe(404);
    expect((await http<any>('POST', sideways, { token: intruder.tokens.access_token, body: promote })).status).toBe(
      404,
    );
    expect((await http<any>('DELETE', sideways, { token: intruder.tokens.access_token })).status).toBe(404);
    const after = await membershipOf(owner.tokens.access_token, victim.membership.id);
    expect(after.meta?.versionId).toBe(before.meta?.versionId);
    expect(after.admin).not.toBe(true);
  });

  it("a super admin edits any project's memberships (even the last admin's), but only at that project's address", async () => {
    const owner = await registerProjectOwner('Members Repaired');
    const other = await registerProjectOwner('Members Elsewhere');
    const detail = await http<any>('GET', `admin/projects/${owner.projectId}`);
    expect(detail.status).toBe(200);
    const ownerSeat = detail.body.members.find((member: any) => member.admin);
    const stored = await http<any>('GET', `admin/projects/${owner.projectId}/members/${ownerSeat.id}`);
    expect(stored.status).toBe(200);
    // The membership does not exist under another project's address, for anyone.
    expect((await http<any>('GET', `admin/projects/${other.projectId}/members/${ownerSeat.id}`)).status).toBe(404);
    const demoted = await http<any>('POST', `admin/projects/${owner.projectId}/members/${ownerSeat.id}`, {
      body: { ...stored.body, admin: false },
    });
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    expect(demoted.body.admin).toBe(false);
    expect(
      (await http<any>('GET', `admin/projects/${owner.projectId}`, { token: owner.tokens.access_token })).status,
    ).toBe(403);
  });

  it('two admins stepping down at the same moment leave one admin', async () => {
    const owner = await registerProjectOwner('Members Race');
    const second = await inviteMember(owner.tokens.access_token, owner.projectId, { admin: true });
    const detail = await http<any>('GET', `admin/projects/${owner.projectId}`, { token: owner.tokens.access_token });
    const ownerSeat = detail.body.members.find((member: any) => member.admin && member.id !== second.membership.id);
    const stepDown = async (token: string, id: string) => {
      const current = await membershipOf(owner.tokens.access_token, id);
      return http<any>('POST', `admin/projects/${owner.projectId}/members/${id}`, {
        token,
        body: { ...current, admin: false },
      });
    };
    const answers = await Promise.all([
      stepDown(owner.tokens.access_token, ownerSeat.id),
      stepDown(second.token, second.membership.id),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const after = await http<any>('GET', `admin/projects/${owner.projectId}`);
    expect(after.body.members.filter((member: any) => member.admin)).toHaveLength(1);
  });
});
