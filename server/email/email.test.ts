import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { inviteMember } from '../admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers of many shapes */
const send = (body: unknown, token?: string | null) =>
  http<any>('POST', 'email/v1/send', { body, token, headers: { 'content-type': 'application/json' } });

function outboxMessages(): { to: string | string[]; cc?: string[]; subject: string; text: string }[] {
  const folder = join(inject('dataDir'), 'outbox');
  return readdirSync(folder).map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')));
}

describe('POST /email/v1/send', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;

  beforeAll(async () => {
    owner = await registerProjectOwner('Mail Clinic');
  });

  it('without SMTP_URL queues the message to the outbox and says it was not delivered', async () => {
    const subject = `Clinic news ${Date.now()}`;
    const answer = await send({
      to: 'patient@mail.example',
      cc: ['nurse@mail.example'],
      bcc: 'records@mail.example',
      from: 'spoofed@elsewhere.example',
      subject,
      text: 'Hello',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.resourceType).toBe('OperationOutcome');
    expect(issueText(answer.body)).toContain('queued to the outbox');
    expect(issueText(answer.body)).toContain('not delivered');
    const stored = outboxMessages().find((message) => message.subject === subject);
    expect(stored).toMatchObject({
      to: ['patient@mail.example'],
      cc: ['nurse@mail.example'],
      bcc: ['records@mail.example'],
      text: 'Hello',
    });
    expect((stored as { from?: string }).from).not.toContain('spoofed');
  });

  it('refuses a self-registered project admin (issue 14 item 11), even one who edits their own Project', async () => {
    const attacker = await registerProjectOwner('Spam Clinic');
    const before = outboxMessages().length;
    const refused = await send(
      { to: 'victim@mail.example', subject: 'Your account is locked', text: 'Click here' },
      attacker.tokens.access_token,
    );
    expect(refused.status).toBe(403);
    expect(issueText(refused.body)).toContain('a super admin can turn on the "email" feature');
    // The project admin cannot turn the feature on themselves.
    const project = await http<any>('GET', `fhir/R4/Project/${attacker.projectId}`, {
      token: attacker.tokens.access_token,
    });
    const edit = await http<any>('PUT', `fhir/R4/Project/${attacker.projectId}`, {
      token: attacker.tokens.access_token,
      body: {
        ...(project.status === 200 ? project.body : { resourceType: 'Project', id: attacker.projectId }),
        features: ['email'],
      },
    });
    expect(edit.status).toBe(403);
    expect(issueExpressions(edit.body)).toEqual(['Project.features']);
    // Nor make their project a super admin's (which would bypass every other check).
    const escalate = await http<any>('PUT', `fhir/R4/Project/${attacker.projectId}`, {
      token: attacker.tokens.access_token,
      body: { ...project.body, superAdmin: true },
    });
    expect(escalate.status).toBe(403);
    expect(issueExpressions(escalate.body)).toEqual(['Project.superAdmin']);
    const patched = await http<any>('PATCH', `fhir/R4/Project/${attacker.projectId}`, {
      token: attacker.tokens.access_token,
      rawBody: JSON.stringify([{ op: 'add', path: '/features', value: ['email'] }]),
      headers: { 'content-type': 'application/json-patch+json' },
    });
    expect(patched.status).toBe(403);
    const created = await http<any>('POST', 'fhir/R4/Project', {
      token: attacker.tokens.access_token,
      body: { resourceType: 'Project', name: 'Shadow', superAdmin: true, features: ['email'] },
    });
    expect(created.status).toBe(403);
    const users = await http<any>('GET', 'fhir/R4/User?_count=5', { token: attacker.tokens.access_token });
    expect(users.body.entry ?? []).toHaveLength(0);
    // Other fields of their own Project stay theirs to edit.
    const renamed = await http<any>('PUT', `fhir/R4/Project/${attacker.projectId}`, {
      token: attacker.tokens.access_token,
      body: { ...project.body, description: 'Renamed by its admin' },
    });
    expect(renamed.status).toBe(200);
    const again = await send({ to: 'victim@mail.example', subject: 'x', text: 'x' }, attacker.tokens.access_token);
    expect(again.status).toBe(403);
    expect(outboxMessages().length).toBe(before);
  });

  it('lets admins of a project with the email feature send, up to the hourly limit; members never', async () => {
    const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`);
    const enabled = await http('PUT', `fhir/R4/Project/${owner.projectId}`, {
      body: { ...project.body, features: ['email'] },
    });
    expect(enabled.status).toBe(200);
    const asOwner = await send(
      { to: 'a@mail.example', subject: 'From the owner', html: '<p>Hi</p>' },
      owner.tokens.access_token,
    );
    expect(asOwner.status).toBe(200);
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    const before = outboxMessages().length;
    const refused = await send({ to: 'a@mail.example', subject: 'Not allowed', text: 'x' }, member.token);
    expect(refused.status).toBe(403);
    expect(issueText(refused.body)).toContain('only project admins');
    expect(outboxMessages().length).toBe(before);
    expect((await send({ to: 'a@mail.example', subject: 'x', text: 'x' }, null)).status).toBe(401);
    // The test server allows 5 an hour (EMAIL_PROJECT_HOURLY_LIMIT): 4 more, then 429.
    for (let i = 0; i < 4; i++) {
      const answer = await send({ to: 'a@mail.example', subject: `Batch ${i}`, text: 'x' }, owner.tokens.access_token);
      expect(answer.status).toBe(200);
    }
    const sent = outboxMessages().length;
    const over = await send({ to: 'a@mail.example', subject: 'One too many', text: 'x' }, owner.tokens.access_token);
    expect(over.status).toBe(429);
    expect(issueText(over.body)).toMatch(
      /^This project has sent its 5 e-mails for this hour\. Try again in \d+ minutes?\.$/,
    );
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(outboxMessages().length).toBe(sent);
    // The limit is the project's, not one process's memory: the super admin is not counted.
    expect((await send({ to: 'a@mail.example', subject: 'From the admin', text: 'x' })).status).toBe(200);
  });

  it('answers 400 naming the field for a bad message', async () => {
    const cases: [unknown, string][] = [
      [{ subject: 'No recipient', text: 'x' }, 'to'],
      [{ to: 'not-an-address', subject: 'x', text: 'x' }, 'to'],
      [{ to: ['a@mail.example', 'bad'], subject: 'x', text: 'x' }, 'to[1]'],
      [{ to: 'a@mail.example', text: 'x' }, 'subject'],
      [{ to: 'a@mail.example', subject: 'Two\nlines', text: 'x' }, 'subject'],
      [{ to: 'a@mail.example', subject: 'No body' }, 'text'],
      [{ to: 'a@mail.example', bcc: 'bad', subject: 'x', text: 'x' }, 'bcc'],
    ];
    const attachment = await send({
      to: 'a@mail.example',
      subject: 'x',
      text: 'x',
      attachments: [{ path: '/etc/passwd' }],
    });
    expect(attachment.status).toBe(400);
    expect(issueText(attachment.body)).toContain('Attachments are not supported');
    for (const [body, field] of cases) {
      const answer = await send(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(issueExpressions(answer.body)).toEqual([field]);
    }
  });
});
