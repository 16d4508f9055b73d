import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { inviteMember } from './projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * The last-admin rule of the admin routes held only there: through `PUT`/`DELETE
 * fhir/R4/ProjectMembership/{id}` a project's only admin could demote or remove themselves and
 * leave a project nobody but a super admin could administer. Replayed over the FHIR API.
 */
describe('the last admin of a project stays one through the FHIR API', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let own: any;

  beforeAll(async () => {
    owner = await registerProjectOwner('Last Admin Clinic');
    const found = await http<any>('GET', `fhir/R4/ProjectMembership?project=Project/${owner.projectId}`, {
      token: owner.tokens.access_token,
    });
    own = found.body.entry.map((e: any) => e.resource).find((m: any) => m.admin === true);
    expect(own).toBeTruthy();
  });

  it('refuses the only admin’s demotion, deactivation and deletion, and keeps the membership as it was', async () => {
    const token = owner.tokens.access_token;
    for (const change of [{ admin: false }, { active: false }]) {
      const answer = await http<any>('PUT', `fhir/R4/ProjectMembership/${own.id}`, {
        token,
        body: { ...own, ...change },
      });
      expect(answer.status).toBe(400);
      expect(issueText(answer.body)).toBe('The project must keep at least one active admin who can sign in');
    }
    const removal = await http<any>('DELETE', `fhir/R4/ProjectMembership/${own.id}`, { token });
    expect(removal.status).toBe(400);
    const after = await http<any>('GET', `fhir/R4/ProjectMembership/${own.id}`, { token });
    expect(after.status).toBe(200);
    expect(after.body.meta.versionId).toBe(own.meta.versionId);
    expect(after.body.admin).toBe(true);
  });

  it('with a second admin, the first may step down', async () => {
    await inviteMember(owner.tokens.access_token, owner.projectId, { admin: true });
    const current = await http<any>('GET', `fhir/R4/ProjectMembership/${own.id}`, { token: owner.tokens.access_token });
    const answer = await http<any>('PUT', `fhir/R4/ProjectMembership/${own.id}`, {
      token: owner.tokens.access_token,
      body: { ...current.body, admin: false },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.admin).toBe(false);
  });
});
