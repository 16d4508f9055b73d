import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, registerUser, uniqueEmail } from '../../tests/integration/accounts';
import { pkcePair, signIn } from '../../tests/integration/signIn';
import { inviteMember } from './projectMembers.test-support';
import { confirmAddressByReset } from '../auth/addressOwnership.test-support';

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
    await registerUser(email, 'existing password 0', pkcePair().challenge);
    // Its owner proved the address ("Forgot password"): an invitation adds it at once. (An account
    // whose address nobody proved waits for its owner: server/auth/addressOwnership.test.ts.)
    await confirmAddressByReset(email, 'existing password 1');
    const body = { resourceType: 'Patient', firstName: 'Ed', lastName: 'Existing', email };
    const first = await inviteAs(token, owner.projectId, body);
    expect(first.status).toBe(200);
    const users = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
    expect(users.body.entry).toHaveLength(1);
    expect(first.body.user.reference).toBe(`User/${users.body.entry[0].resource.id}`);
    const message = outboxTo(email).find((m) => !m.subject.startsWith('Reset'));
    expect(message?.subject).toContain('added to Invite Clinic');
    expect(message?.text).not.toContain('setpassword');
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

  it("counts invitation e-mails in the project's hourly e-mail limit (5 on the test server): no unbounded mail", async () => {
    const sender = await registerProjectOwner('Invite Mailer');
    const body = () => ({
      resourceType: 'Practitioner',
      firstName: 'Spam',
      lastName: 'Target',
      email: uniqueEmail('target'),
    });
    for (let sent = 0; sent < 5; sent++) {
      expect((await inviteAs(sender.tokens.access_token, sender.projectId, body())).status).toBe(200);
    }
    const over = body();
    const refused = await inviteAs(sender.tokens.access_token, sender.projectId, over);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(outboxTo(over.email)).toHaveLength(0);
    const users = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(over.email)}`);
    expect(users.body.entry ?? []).toHaveLength(0);
    // Without an e-mail the invitation still works, and the super admin is not counted.
    expect((await inviteAs(sender.tokens.access_token, sender.projectId, { ...body(), sendEmail: false })).status).toBe(
      200,
    );
    expect((await inviteAs(undefined, sender.projectId, body())).status).toBe(200);
  });

  it("binds no other project's policy, configuration or parameter to the member it makes (auth/me would show them)", async () => {
    // The other clinic's records, whose ids the attacker has learnt.
    const otherToken = other.tokens.access_token;
    const theirPolicy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: otherToken,
      body: { resourceType: 'AccessPolicy', name: 'their private policy', resource: [{ resourceType: 'Patient' }] },
    });
    const theirConfig = await http<any>('POST', 'fhir/R4/UserConfiguration', {
      token: otherToken,
      body: { resourceType: 'UserConfiguration', name: 'their private configuration' },
    });
    const theirPatient = await http<any>('POST', 'fhir/R4/Patient', {
      token: otherToken,
      body: { resourceType: 'Patient', name: [{ family: 'Theirs' }] },
    });
    const ownPolicy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token,
      body: { resourceType: 'AccessPolicy', name: 'own', resource: [{ resourceType: 'Patient' }] },
    });
    const email = uniqueEmail('binder');
    const password = 'binder password 123';
    const body = {
      resourceType: 'Practitioner',
      firstName: 'Bea',
      lastName: 'Binder',
      email,
      password,
      sendEmail: false,
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ access: [{ policy: { reference: `AccessPolicy/${theirPolicy.body.id}` } }] }, 'membership.access[0].policy'],
      [
        { userConfiguration: { reference: `UserConfiguration/${theirConfig.body.id}` } },
        'membership.userConfiguration',
      ],
      [
        {
          access: [
            {
              policy: { reference: `AccessPolicy/${ownPolicy.body.id}` },
              parameter: [{ name: 'patient', valueReference: { reference: `Patient/${theirPatient.body.id}` } }],
            },
          ],
        },
        'membership.access[0].parameter[0].valueReference',
      ],
      [{ access: { policy: { reference: `AccessPolicy/${ownPolicy.body.id}` } } }, 'membership.access'],
    ];
    for (const [membership, field] of cases) {
      const answer = await inviteAs(token, owner.projectId, { ...body, membership });
      expect(answer.status, JSON.stringify(membership)).toBe(400);
      expect(issueExpressions(answer.body)).toEqual([field]);
    }
    // Nothing was made, so the address cannot sign in and read the other project's records.
    await expect(signIn(baseUrl(), email, password)).rejects.toThrow();

    // This project's own policy, parameter and configuration still work.
    const ownConfig = await http<any>('POST', 'fhir/R4/UserConfiguration', {
      token,
      body: { resourceType: 'UserConfiguration', name: 'own configuration' },
    });
    const ownPatient = await http<any>('POST', 'fhir/R4/Patient', {
      token,
      body: { resourceType: 'Patient', name: [{ family: 'Own' }] },
    });
    const invited = await inviteAs(token, owner.projectId, {
      ...body,
      membership: {
        access: [
          {
            policy: { reference: `AccessPolicy/${ownPolicy.body.id}` },
            parameter: [{ name: 'patient', valueReference: { reference: `Patient/${ownPatient.body.id}` } }],
          },
        ],
        userConfiguration: { reference: `UserConfiguration/${ownConfig.body.id}` },
      },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const me = await http<any>('GET', 'auth/me', { token: (await signIn(baseUrl(), email, password)).access_token });
    expect(me.body.config.name).toBe('own configuration');
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
