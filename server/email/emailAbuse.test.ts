import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, signInThroughClient } from '../../tests/integration/accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers of many shapes */
const send = (body: unknown, token: string) =>
  http<any>('POST', 'email/v1/send', { body, token, headers: { 'content-type': 'application/json' } });

function outboxSubjects(): string[] {
  const folder = join(inject('dataDir'), 'outbox');
  return readdirSync(folder).map((file) => (JSON.parse(readFileSync(join(folder, file), 'utf8')) as any).subject);
}

const addresses = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@mail.example`);

/** A new project whose admin a super admin allowed to send e-mail (the test server allows 5 an hour). */
async function emailProject(name: string) {
  const owner = await registerProjectOwner(name);
  const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`);
  const enabled = await http('PUT', `fhir/R4/Project/${owner.projectId}`, {
    body: { ...project.body, features: ['email'] },
  });
  expect(enabled.status).toBe(200);
  return owner;
}

describe('POST /email/v1/send against abuse by an allowed project', () => {
  let owner: Awaited<ReturnType<typeof emailProject>>;

  beforeAll(async () => {
    owner = await emailProject('Mail Abuse Clinic');
  });

  it("refuses a third-party app's token for the allowed admin (it was only given FHIR scopes), sending nothing", async () => {
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Charting app', redirectUri: 'https://chart-app.example/cb' },
    });
    expect(client.status).toBe(201);
    const tokens = await signInThroughClient(owner.email, owner.password, client.body.id);
    expect(tokens.status).toBe(200);
    const subject = `From the app ${Date.now()}`;
    const refused = await send({ to: 'patient@mail.example', subject, text: 'x' }, tokens.body.access_token);
    expect(refused.status).toBe(403);
    expect(issueText(refused.body)).toContain('a token issued to an application for a person may not send e-mail');
    expect(outboxSubjects()).not.toContain(subject);
  });

  it('counts every address against the hourly limit, not every message; a refused message takes nothing', async () => {
    const project = await emailProject('Mail Fan-out Clinic');
    const token = project.tokens.access_token;
    // 150 addresses in one message were one "e-mail" of the limit of 5.
    const wide = await send(
      { to: addresses(50, 'to'), cc: addresses(50, 'cc'), bcc: addresses(50, 'bcc'), subject: 'Wide', text: 'x' },
      token,
    );
    expect(wide.status).toBe(400);
    expect(issueExpressions(wide.body)).toEqual(['to']);
    expect(issueText(wide.body)).toBe(
      'This message goes to 150 addresses (to, cc and bcc); this project may send at most 5 e-mails an hour',
    );
    expect(outboxSubjects()).not.toContain('Wide');
    expect(
      (await send({ to: addresses(2, 'a'), cc: 'c@mail.example', subject: 'Three', text: 'x' }, token)).status,
    ).toBe(200);
    const over = await send({ to: addresses(3, 'b'), subject: 'Three more', text: 'x' }, token);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(outboxSubjects()).not.toContain('Three more');
    // The refused three took nothing: two more addresses still fit, then nothing.
    expect((await send({ to: addresses(2, 'c'), subject: 'Two', text: 'x' }, token)).status).toBe(200);
    expect((await send({ to: 'd@mail.example', subject: 'One too many', text: 'x' }, token)).status).toBe(429);
  });

  it('refuses control characters in the subject and addresses (400 naming the field)', async () => {
    const cases: [unknown, string][] = [
      [{ to: 'a@mail.example', subject: 'Hi\u2028Bcc: x@evil.example', text: 'x' }, 'subject'],
      [{ to: 'a@mail.example', subject: 'Hi \u001b[31mred', text: 'x' }, 'subject'],
      [{ to: 'a@mail.example', subject: 'Tab\u000bbed', text: 'x' }, 'subject'],
      [{ to: ['a@mail.example', 'v\u0001@mail.example'], subject: 'x', text: 'x' }, 'to[1]'],
    ];
    for (const [body, field] of cases) {
      const answer = await send(body, owner.tokens.access_token);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(issueExpressions(answer.body)).toEqual([field]);
    }
  });
});
