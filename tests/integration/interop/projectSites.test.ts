import { MedplumClient } from '@medplum/core';
import type { Project } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueExpressions } from '../fhirClient';
import { registerProjectOwner } from '../accounts';
import { inviteMember } from '../../../server/admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- admin answers of many shapes */

/** Issue 18: `POST /admin/projects/{id}/sites` (Medplum's sites page), through @medplum/core's `post`. */

describe('POST /admin/projects/{id}/sites', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let intruder: Awaited<ReturnType<typeof registerProjectOwner>>;
  let medplum: MedplumClient;

  const site = {
    name: 'Patient portal',
    domain: ['portal.clinic.example', 'Portal2.Clinic.example'],
    googleClientId: 'google-id',
    googleClientSecret: 'google-secret-value',
    recaptchaSiteKey: '',
  };

  async function storedProject(): Promise<Project> {
    const answer = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`, { token: owner.tokens.access_token });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  beforeAll(async () => {
    owner = await registerProjectOwner('Sites Clinic');
    intruder = await registerProjectOwner('Sites Intruder');
    medplum = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
    medplum.setAccessToken(owner.tokens.access_token);
  });

  it('replaces Project.site; answers name the site secrets without their values', async () => {
    const saved: Project = await medplum.post(`admin/projects/${owner.projectId}/sites`, [site]);
    expect(saved.site).toEqual([
      {
        name: 'Patient portal',
        domain: ['portal.clinic.example', 'portal2.clinic.example'],
        googleClientId: 'google-id',
        googleClientSecret: '********',
      },
    ]);
    expect((await storedProject()).site?.[0].googleClientSecret).toBe('google-secret-value');
    const detail = await medplum.get(`admin/projects/${owner.projectId}`, { cache: 'no-cache' });
    expect(detail.project.site[0].domain).toEqual(['portal.clinic.example', 'portal2.clinic.example']);
    expect(JSON.stringify(detail)).not.toContain('google-secret-value');
    expect(['smtp', 'outbox']).toContain(detail.email.delivery);
  });

  it('refuses bad sites with every field path, and keeps the stored ones', async () => {
    const before = await storedProject();
    const cases: [unknown, string[]][] = [
      [{ name: 'x', domain: ['a.example'] }, ['site']],
      [[{ domain: ['a.example'] }], ['site[0].name']],
      [[{ name: 'A', domain: [] }], ['site[0].domain']],
      [[{ name: 'A', domain: ['https://a.example/path'] }], ['site[0].domain[0]']],
      [
        [
          { name: 'A', domain: ['a.example'] },
          { name: 'A', domain: ['A.example', 'b.example'], recaptchaSecretKey: 42 },
        ],
        ['site[1].name', 'site[1].domain[0]', 'site[1].recaptchaSecretKey'],
      ],
    ];
    for (const [body, paths] of cases) {
      const answer = await http<any>('POST', `admin/projects/${owner.projectId}/sites`, {
        token: owner.tokens.access_token,
        body,
      });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(issueExpressions(answer.body)).toEqual(paths);
    }
    const after = await storedProject();
    expect(after.meta?.versionId).toBe(before.meta?.versionId);
    expect(after.site).toEqual(before.site);
  });

  it("another project's admin gets 404 and a plain member 403; nothing changes", async () => {
    const before = await storedProject();
    const attack = [{ name: 'planted', domain: ['evil.example'] }];
    const foreign = await http<any>('POST', `admin/projects/${owner.projectId}/sites`, {
      token: intruder.tokens.access_token,
      body: attack,
    });
    expect(foreign.status).toBe(404);
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    const plain = await http<any>('POST', `admin/projects/${owner.projectId}/sites`, {
      token: member.token,
      body: attack,
    });
    expect(plain.status).toBe(403);
    expect((await storedProject()).meta?.versionId).toBe(before.meta?.versionId);
  });

  it('an empty list removes the sites', async () => {
    const saved: Project = await medplum.post(`admin/projects/${owner.projectId}/sites`, []);
    expect(saved.site).toBeUndefined();
    expect((await storedProject()).site).toBeUndefined();
  });
});
