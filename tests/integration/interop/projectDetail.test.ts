import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../fhirClient';
import { registerProjectOwner } from '../accounts';
import { inviteMember } from '../../../server/admin/projectMembers.test-support';
import { createBot, executeBot } from '../../../server/bots/bots.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- admin answers of many shapes */

/** Issue 18: `GET /admin/projects/{id}` and `POST /admin/projects/{id}/secrets` (Medplum's admin pages). */

describe('GET /admin/projects/{id} and POST /admin/projects/{id}/secrets', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let intruder: Awaited<ReturnType<typeof registerProjectOwner>>;
  let botId: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Detail Clinic');
    intruder = await registerProjectOwner('Detail Intruder');
    botId = await createBot(
      owner.tokens.access_token,
      'exports.handler = async (medplum, event) => event.secrets.API_KEY ? event.secrets.API_KEY.valueString : "none";',
    );
  });

  it('answers the project and its members to its admin', async () => {
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    const answer = await http<any>('GET', `admin/projects/${owner.projectId}`, { token: owner.tokens.access_token });
    expect(answer.status).toBe(200);
    expect(answer.body.project.id).toBe(owner.projectId);
    expect(answer.body.project.name).toBe('Detail Clinic');
    const ids = answer.body.members.map((entry: any) => entry.id);
    expect(ids).toContain(member.membership.id);
    expect(answer.body.members.some((entry: any) => entry.admin === true)).toBe(true);
  });

  it('replaces the secrets, which the bot then receives; the answer names them without their values', async () => {
    const answer = await http<any>('POST', `admin/projects/${owner.projectId}/secrets`, {
      token: owner.tokens.access_token,
      body: [{ name: 'API_KEY', valueString: 'k-123' }],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.secret).toEqual([{ name: 'API_KEY', valueString: '********' }]);
    expect(JSON.stringify(answer.body)).not.toContain('k-123');
    expect((await executeBot(owner.tokens.access_token, botId)).body).toBe('k-123');
    const detail = await http<any>('GET', `admin/projects/${owner.projectId}`, { token: owner.tokens.access_token });
    expect(JSON.stringify(detail.body)).not.toContain('k-123');
  });

  it('refuses bad secrets with the entry named and keeps the old ones', async () => {
    for (const body of [
      { name: 'API_KEY' },
      [{ name: 'API_KEY' }],
      [
        { name: 'A', valueString: 'x' },
        { name: 'A', valueString: 'y' },
      ],
      [{ name: 'bad name!', valueString: 'x' }],
    ]) {
      const answer = await http<any>('POST', `admin/projects/${owner.projectId}/secrets`, {
        token: owner.tokens.access_token,
        body,
      });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body.issue)).toContain('secret');
    }
    expect((await executeBot(owner.tokens.access_token, botId)).body).toBe('k-123');
  });

  it("another project's admin gets 404 and a plain member 403 for both; nothing is read or changed", async () => {
    const read = await http<any>('GET', `admin/projects/${owner.projectId}`, { token: intruder.tokens.access_token });
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.body)).not.toContain('Detail Clinic');
    const write = await http<any>('POST', `admin/projects/${owner.projectId}/secrets`, {
      token: intruder.tokens.access_token,
      body: [{ name: 'API_KEY', valueString: 'planted' }],
    });
    expect(write.status).toBe(404);
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    expect((await http<any>('GET', `admin/projects/${owner.projectId}`, { token: member.token })).status).toBe(403);
    const memberWrite = await http<any>('POST', `admin/projects/${owner.projectId}/secrets`, {
      token: member.token,
      body: [{ name: 'API_KEY', valueString: 'planted' }],
    });
    expect(memberWrite.status).toBe(403);
    expect((await executeBot(owner.tokens.access_token, botId)).body).toBe('k-123');
  });
});
