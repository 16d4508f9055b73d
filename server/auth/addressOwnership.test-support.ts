import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { postJson } from '../../tests/integration/accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers of many shapes */

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
}

/** The messages the test server wrote to its outbox for `email`, oldest first. */
export function outboxTo(email: string): OutboxMessage[] {
  const folder = join(inject('dataDir'), 'outbox');
  return readdirSync(folder)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as OutboxMessage)
    .filter((message) => message.to === email);
}

/** The set-password link of a message: its request id and secret. */
export function setPasswordLinkIn(message: OutboxMessage | undefined): { id: string; secret: string } {
  const link = /setpassword\/([^/\s]+)\/(\S+)/.exec(message?.text ?? '');
  expect(link, message?.text).not.toBeNull();
  return { id: (link as RegExpExecArray)[1], secret: (link as RegExpExecArray)[2] };
}

/** Completes the newest set-password link e-mailed to `email` with `password` (as the address owner does). */
export async function completeLatestLink(email: string, password: string) {
  const messages = outboxTo(email).filter((message) => message.text.includes('setpassword/'));
  const { id, secret } = setPasswordLinkIn(messages[messages.length - 1]);
  return postJson('auth/setpassword', { id, secret, password });
}

/** Proves the address of an existing account through "Forgot password" and the e-mailed link. */
export async function confirmAddressByReset(email: string, password: string): Promise<void> {
  expect((await postJson('auth/resetpassword', { email })).status).toBe(200);
  // The reset e-mail is sent without waiting (same answer for known and unknown addresses).
  for (let tries = 0; tries < 50; tries++) {
    if (outboxTo(email).some((message) => message.subject.startsWith('Reset'))) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const set = await completeLatestLink(email, password);
  expect(set.status, JSON.stringify(set.body)).toBe(200);
}

/** The User with this address, as the super admin reads it. */
export async function userByEmail(email: string): Promise<Record<string, any>> {
  const found = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
  expect(found.body.entry).toHaveLength(1);
  return found.body.entry[0].resource;
}
