import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, registerUser, uniqueEmail } from '../../tests/integration/accounts';
import { pkcePair, signIn } from '../../tests/integration/signIn';
import { inviteMember } from './projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers of many shapes */
type Owner = Awaited<ReturnType<typeof registerProjectOwner>>;

const inviteAs = (token: string | undefined, projectId: string, body: Record<string, unknown>) =>
  http<any>('POST', `admin/projects/${projectId}/invite`, {
    token,
    body,
    headers: { 'content-type': 'application/json' },
  });

function outboxTo(email: string): { subject: string; text: string }[] {
  const folder = join(inject('dataDir'), 'outbox');
  return readdirSync(folder)
    .map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')))
    .filter((message) => message.to === email);
}

describe('POST /admin/projects/{id}/invite', () => {
  let owner: Owner;
  let other: Owner;
  let token: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Invite Clinic');
    other = await registerProjectOwner('Invite Elsewhere');
    token = owner.tokens.access_token;
  });

  it('creates the user, the profile and the membership, and e-mails a set-password link that works', async () => {
    const email = uniqueEmail('invitee');
    const answer = await inviteAs(token, owner.projectId, {
      resourceType: 'Practitioner',
      firstName: 'Iris',
      lastName: 'Invited',
      email,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${owner.projectId}` },
    });
    expect(answer.body.profile.reference).toMatch(/^Practitioner\//);
    expect(answer.body.admin).toBeUndefined();
    const profile = await http<any>('GET', `fhir/R4/${answer.body.profile.reference}`, { token });
    expect(profile.body.name[0]).toEqual({ given: ['Iris'], family: 'Invited' });

    const [message] = outboxTo(email);
    expect(message.subject).toContain('Invite Clinic');
    const link = /setpassword\/([^/\s]+)\/(\S+)/.exec(message.text);
    expect(link).not.toBeNull();
    const set = await http('POST', 'auth/setpassword', {
      body: { id: link?.[1], secret: link?.[2], password: 'invited password 1' },
      headers: { 'content-type': 'application/json' },
      token: null,
    });
    expect(set.status).toBe(200);
    const tokens = await signIn(baseUrl(), email, 'invited password 1');
    const me = await http<any>('GET', 'auth/me', { token: tokens.access_token });
    expect(me.body.profile.id).toBe(answer.body.profile.reference.split('/')[1]);
    expect(me.body.project.id).toBe(owner.projectId);
  });

  it('reuses an existing user (no link in the e-mail) and refuses a second membership with 409', async () => {
    const email = uniqueEmail('existing');
    await registerUser(email, 'existing password 1', pkcePair().challenge);
    const body = { resourceType: 'Patient', firstName: 'Ed', lastName: 'Existing', email };
    const first = await inviteAs(token, owner.projectId, body);
    expect(first.status).toBe(200);
    const users = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
    expect(users.body.entry).toHaveLength(1);
    expect(first.body.user.reference).toBe(`User/${users.body.entry[0].resource.id}`);
    const [message] = outboxTo(email);
    expect(message.subject).toContain('added to Invite Clinic');
    expect(message.text).not.toContain('setpassword');
    // The old password still works and now reaches the project.
    expect((await signIn(baseUrl(), email, 'existing password 1')).project.reference).toBe(
      `Project/${owner.projectId}`,
    );

    const patientsBefore = await http<any>('GET', 'fhir/R4/Patient?family=Existing&_total=accurate', { token });
    const again = await inviteAs(token, owner.projectId, body);
    expect(again.status).toBe(409);
    expect(issueText(again.body)).toContain('already a member');
    const patientsAfter = await http<any>('GET', 'fhir/R4/Patient?family=Existing&_total=accurate', { token });
    expect(patientsAfter.body.total).toBe(patientsBefore.body.total);
  });

  it('applies the access policy and admin flag it was given; no e-mail with sendEmail false', async () => {
    const limited = await inviteMember(token, owner.projectId, { policy: { resource: [{ resourceType: 'Patient' }] } });
    expect(limited.membership.accessPolicy.reference).toMatch(/^AccessPolicy\//);
    expect((await http('GET', 'fhir/R4/Observation', { token: limited.token })).status).toBe(403);
    expect((await http('GET', 'fhir/R4/Patient', { token: limited.token })).status).toBe(200);
    expect(outboxTo(limited.email)).toHaveLength(0);

    const admin = await inviteMember(token, owner.projectId, { admin: true });
    expect(admin.membership.admin).toBe(true);
    const byAdmin = await inviteAs(admin.token, owner.projectId, {
      resourceType: 'Practitioner',
      firstName: 'Second',
      lastName: 'Hop',
      email: uniqueEmail('hop'),
      sendEmail: false,
    });
    expect(byAdmin.status).toBe(200);
  });

  it('invites a RelatedPerson for a patient of the project', async () => {
    const patient = await http<any>('POST', 'fhir/R4/Patient', {
      token,
      body: { resourceType: 'Patient', name: [{ family: 'Child' }] },
    });
    const answer = await inviteAs(token, owner.projectId, {
      resourceType: 'RelatedPerson',
      firstName: 'Rita',
      lastName: 'Parent',
      email: uniqueEmail('parent'),
      patient: { reference: `Patient/${patient.body.id}` },
      sendEmail: false,
    });
    expect(answer.status).toBe(200);
    const related = await http<any>('GET', `fhir/R4/${answer.body.profile.reference}`, { token });
    expect(related.body.patient.reference).toBe(`Patient/${patient.body.id}`);
  });

  it('refuses members who are not admins (403), other projects (404) and bad input (400)', async () => {
    const body = { resourceType: 'Practitioner', firstName: 'No', lastName: 'Way', email: uniqueEmail('noway') };
    const member = await inviteMember(token, owner.projectId);
    expect((await inviteAs(member.token, owner.projectId, body)).status).toBe(403);
    const foreign = await inviteAs(other.tokens.access_token, owner.projectId, body);
    expect(foreign.status).toBe(404);
    expect((await inviteAs(undefined, 'no-such-project', body)).status).toBe(404);
    expect((await inviteAs(null as unknown as undefined, owner.projectId, body)).status).toBe(401);
    expect(outboxTo(body.email)).toHaveLength(0);

    const policyElsewhere = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: other.tokens.access_token,
      body: { resourceType: 'AccessPolicy', name: 'theirs', resource: [{ resourceType: 'Patient' }] },
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ ...body, resourceType: 'Organization' }, 'resourceType'],
      [{ ...body, email: undefined }, 'email'],
      [{ ...body, firstName: '' }, 'firstName'],
      [{ ...body, accessPolicy: { reference: `AccessPolicy/${policyElsewhere.body.id}` } }, 'accessPolicy'],
      [{ ...body, membership: { project: { reference: 'Project/x' } } }, 'membership.project'],
      [{ ...body, password: 'short' }, 'password'],
    ];
    for (const [input, field] of cases) {
      const answer = await inviteAs(token, owner.projectId, input);
      expect(answer.status, JSON.stringify(input)).toBe(400);
      expect(issueExpressions(answer.body)).toEqual([field]);
    }
    const users = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(body.email)}`);
    expect(users.body.entry ?? []).toHaveLength(0);
  });
});

describe('direct ProjectMembership writes', () => {
  let owner: Owner;
  let other: Owner;

  beforeAll(async () => {
    owner = await registerProjectOwner('Membership Clinic');
    other = await registerProjectOwner('Membership Elsewhere');
  });

  const postMembership = (token: string | undefined, body: Record<string, unknown>) =>
    http<any>('POST', 'fhir/R4/ProjectMembership', { token, body: { resourceType: 'ProjectMembership', ...body } });

  it('a project admin cannot attach an existing user; only super admins can', async () => {
    const email = uniqueEmail('outsider');
    await registerUser(email, 'outsider password 1', pkcePair().challenge);
    const user = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
    const practitioner = await http<any>('POST', 'fhir/R4/Practitioner', {
      token: owner.tokens.access_token,
      body: { resourceType: 'Practitioner', name: [{ family: 'Outsider' }] },
    });
    const body = {
      project: { reference: `Project/${owner.projectId}` },
      user: { reference: `User/${user.body.entry[0].resource.id}` },
      profile: { reference: `Practitioner/${practitioner.body.id}` },
    };
    const refused = await postMembership(owner.tokens.access_token, body);
    expect(refused.status).toBe(403);
    expect(issueText(refused.body)).toContain('/admin/projects/');
    const batch = await http<any>('POST', 'fhir/R4', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            resource: { resourceType: 'ProjectMembership', ...body },
            request: { method: 'POST', url: 'ProjectMembership' },
          },
        ],
      },
    });
    expect(batch.status).toBe(403);
    const added = await postMembership(undefined, body);
    expect(added.status).toBe(201);
    // The membership belongs to the clinic it grants, so the clinic's admin sees it.
    expect(added.body.meta.project).toBe(owner.projectId);
    const seen = await http<any>('GET', `fhir/R4/ProjectMembership/${added.body.id}`, {
      token: owner.tokens.access_token,
    });
    expect(seen.status).toBe(200);
  });

  it('a project admin keeps memberships of its own clients in its own project, and cannot re-point one', async () => {
    const token = owner.tokens.access_token;
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token,
      body: { resourceType: 'ClientApplication', name: 'Feed', secret: 'feed-secret-123456' },
    });
    const clientRef = { reference: `ClientApplication/${client.body.id}` };
    const elsewhere = await postMembership(token, {
      project: { reference: `Project/${other.projectId}` },
      user: clientRef,
      profile: clientRef,
    });
    expect(elsewhere.status).toBe(403);
    expect(issueText(elsewhere.body)).toContain('must belong to your project');
    const own = await postMembership(token, {
      project: { reference: `Project/${owner.projectId}` },
      user: clientRef,
      profile: clientRef,
    });
    expect(own.status).toBe(201);
    const someone = await inviteMember(token, owner.projectId);
    const repoint = await http<any>('PUT', `fhir/R4/ProjectMembership/${own.body.id}`, {
      token,
      body: { ...own.body, user: someone.membership.user },
    });
    expect(repoint.status).toBe(403);
    const adminFlag = await http<any>('PUT', `fhir/R4/ProjectMembership/${own.body.id}`, {
      token,
      body: { ...own.body, admin: false },
    });
    expect(adminFlag.status).toBe(200);
  });
});
