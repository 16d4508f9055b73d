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

  it('lets project admins send, and refuses members who are not admins', async () => {
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
