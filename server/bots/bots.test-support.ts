import { expect } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
export type BotAnswer = { status: number; body: any; headers: Headers };

/** Saves a Bot with this code in the caller's project; answers its id. */
export async function createBot(token: string, code: string, extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await http<any>('POST', 'fhir/R4/Bot', {
    token,
    body: { resourceType: 'Bot', name: 'Test bot', code, ...extra },
  });
  expect(answer.status).toBe(201);
  return answer.body.id;
}

/** `POST Bot/{id}/$execute` with a raw body, as the given token. */
export async function executeBot(
  token: string,
  botId: string,
  body = '{}',
  contentType = 'application/json',
): Promise<BotAnswer> {
  const response = await fetch(new URL(`fhir/R4/Bot/${botId}/$execute`, baseUrl()), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a text answer
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** The AuditEvents of a bot's runs, newest first. */
export async function botAuditEvents(token: string, botId: string): Promise<any[]> {
  const answer = await http<any>('GET', `fhir/R4/AuditEvent?entity=Bot/${botId}&_sort=-_lastUpdated`, { token });
  return (answer.body.entry ?? []).map((entry: any) => entry.resource);
}
