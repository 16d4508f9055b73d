import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueText } from '../fhirClient';
import { registerProjectOwner, tokenRequest } from '../accounts';
import { inviteMember, type Member } from '../../../server/admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * Found while building the admin screens (issue 19): a member who is not an admin read, through
 * the FHIR API, a ClientApplication's `secret` (and signed in as that client, an admin one: a
 * privilege escalation) and the project's secrets. Only admins read these credentials now.
 */
describe('credentials only project admins may read', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let member: Member;
  let client: any;

  beforeAll(async () => {
    owner = await registerProjectOwner('Secrets Clinic');
    const token = owner.tokens.access_token;
    client = (
      await http<any>('POST', `admin/projects/${owner.projectId}/client`, { token, body: { name: 'Deployer' } })
    ).body;
    const memberships = await http<any>('GET', `fhir/R4/ProjectMembership?user=ClientApplication/${client.id}`, {
      token,
    });
    const membership = memberships.body.entry[0].resource;
    expect(
      (
        await http<any>('PUT', `fhir/R4/ProjectMembership/${membership.id}`, {
          token,
          body: { ...membership, admin: true },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await http<any>('POST', `admin/projects/${owner.projectId}/secrets`, {
          token,
          body: [{ name: 'LAB_API_KEY', valueString: 'lab-key-value' }],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await http<any>('POST', `admin/projects/${owner.projectId}/sites`, {
          token,
          body: [{ name: 'Portal', domain: ['portal.example'], recaptchaSecretKey: 'recaptcha-secret-value' }],
        })
      ).status,
    ).toBe(200);
    member = await inviteMember(token, owner.projectId);
  });

  it('a plain member reads the ClientApplication and the Project without their secrets, by read, search, history and GraphQL', async () => {
    const answers = [
      await http<any>('GET', `fhir/R4/ClientApplication/${client.id}`, { token: member.token }),
      await http<any>('GET', `fhir/R4/ClientApplication?_id=${client.id}`, { token: member.token }),
      await http<any>('GET', `fhir/R4/ClientApplication/${client.id}/_history`, { token: member.token }),
      await http<any>('GET', `fhir/R4/Project/${owner.projectId}`, { token: member.token }),
      await http<any>('GET', `fhir/R4/Project/${owner.projectId}/_history`, { token: member.token }),
      await http<any>('POST', 'fhir/R4/$graphql', {
        token: member.token,
        headers: { 'content-type': 'application/json' },
        body: { query: `{ ClientApplicationList(_id: "${client.id}") { id name secret } }` },
      }),
    ];
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain(client.secret);
      expect(text).not.toContain('lab-key-value');
      expect(text).not.toContain('recaptcha-secret-value');
    }
    expect(JSON.stringify(answers[0].body)).toContain('Deployer');
    expect(answers[3].body.name).toBe('Secrets Clinic');
    expect(answers[3].body.secret).toBeUndefined();
    expect(JSON.stringify(answers[3].body)).toContain('portal.example');
  });

  it("the admin client's secret still works for its holder, and the project's admin still reads it", async () => {
    const read = await http<any>('GET', `fhir/R4/ClientApplication/${client.id}`, { token: owner.tokens.access_token });
    expect(read.body.secret).toBe(client.secret);
    const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`, { token: owner.tokens.access_token });
    expect(project.body.secret).toEqual([{ name: 'LAB_API_KEY', valueString: 'lab-key-value' }]);
    const signIn = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: client.secret,
    });
    expect(signIn.status, issueText(signIn.body)).toBe(200);
  });
});
