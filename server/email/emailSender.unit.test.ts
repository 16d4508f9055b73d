import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmailSender, defaultFromAddress } from './emailSender';
import { LoopbackSmtp } from './loopbackSmtp.test-support';

describe('the e-mail sender', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-email-'));
  const smtp = new LoopbackSmtp(['nobody@clinic.example']);
  let port: number;

  beforeAll(async () => {
    port = await smtp.start();
  });
  afterAll(async () => {
    await smtp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('hands the message to the SMTP server of SMTP_URL', async () => {
    const log: string[] = [];
    const sender = createEmailSender({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      dataDir,
      from: 'Hearth EMR <noreply@clinic.example>',
      log: (line) => log.push(line),
    });
    expect(sender.mode).toBe('smtp');
    const result = await sender.send({
      to: ['alice@clinic.example'],
      cc: 'ben@clinic.example',
      bcc: 'audit@clinic.example',
      subject: 'Lab results ready',
      text: 'Your results are ready: https://secret.example/link',
    });
    expect(result.delivery).toBe('smtp');
    await smtp.waitFor(1);
    const mail = smtp.received[0];
    expect(mail.from).toBe('noreply@clinic.example');
    expect(mail.to.sort()).toEqual(['alice@clinic.example', 'audit@clinic.example', 'ben@clinic.example']);
    // Blind copies are delivered but not named in the message.
    expect(mail.data).not.toContain('audit@clinic.example');
    expect(mail.data).toContain('Subject: Lab results ready');
    expect(mail.data).toContain('Your results are ready');
    // Only the subject is logged: bodies carry sign-in links.
    expect(log.join('\n')).toContain('Lab results ready');
    expect(log.join('\n')).not.toContain('secret.example');
    // Nothing went to the outbox.
    expect(() => readdirSync(join(dataDir, 'outbox'))).toThrow();
  });

  it('rejects when the SMTP server refuses the recipient', async () => {
    const sender = createEmailSender({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      dataDir,
      from: 'a@b.example',
      log: () => undefined,
    });
    await expect(sender.send({ to: 'nobody@clinic.example', subject: 'Hi', text: 'x' })).rejects.toThrow(
      /550|No such user/,
    );
  });

  it('without SMTP_URL writes the message to the DATA_DIR outbox and logs only the subject', async () => {
    const log: string[] = [];
    const sender = createEmailSender({
      dataDir,
      from: defaultFromAddress('https://emr.clinic.example/'),
      log: (line) => log.push(line),
    });
    expect(sender.mode).toBe('outbox');
    const result = await sender.send({
      to: 'carol@clinic.example',
      subject: 'Invitation',
      text: 'https://secret.example/x',
    });
    expect(result.delivery).toBe('outbox');
    const files = readdirSync(join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    const stored = JSON.parse(readFileSync(join(dataDir, 'outbox', files[0]), 'utf8'));
    expect(stored).toMatchObject({
      to: 'carol@clinic.example',
      subject: 'Invitation',
      text: 'https://secret.example/x',
      from: 'Hearth EMR <noreply@emr.clinic.example>',
    });
    expect(log.join('\n')).toContain('Invitation');
    expect(log.join('\n')).not.toContain('secret.example');
  });
});
