import { MedplumClient, OperationOutcomeError } from '@medplum/core';
import type { Bot } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../fhirClient';
import { registerProjectOwner } from '../accounts';
import { inviteMember } from '../../../server/admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** Issue 18: `POST Bot/{id}/$deploy` as Medplum's app and CLI call it, driven by @medplum/core. */

function medplumAs(token: string): MedplumClient {
  const client = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
  client.setAccessToken(token);
  return client;
}

async function failureOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'ok';
  } catch (error) {
    if (error instanceof OperationOutcomeError) return error.outcome.issue?.[0]?.code ?? 'unknown';
    throw error;
  }
}

describe('POST Bot/{id}/$deploy (@medplum/core)', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let medplum: MedplumClient;
  let bot: Bot;

  beforeAll(async () => {
    owner = await registerProjectOwner('Deploy Clinic');
    medplum = medplumAs(owner.tokens.access_token);
    bot = await medplum.createResource<Bot>({
      resourceType: 'Bot',
      name: 'deploy target',
      code: 'exports.handler = async () => "old";',
    });
  });

  it('deploys new code, which $execute then runs', async () => {
    expect(await medplum.executeBot(bot.id as string, {}, 'application/json')).toBe('old');
    const outcome = await medplum.post(medplum.fhirUrl('Bot', bot.id as string, '$deploy'), {
      code: 'exports.handler = async (medplum, event) => ({ deployed: true, got: event.input.n });',
      filename: 'index.js',
    });
    expect(outcome.resourceType).toBe('OperationOutcome');
    const answer = await medplum.executeBot(bot.id as string, { n: 7 }, 'application/json');
    expect(answer).toEqual({ deployed: true, got: 7 });
    const stored = await medplum.readResource('Bot', bot.id as string);
    expect(stored.code).toContain('deployed: true');
    expect(stored.meta?.versionId).not.toBe(bot.meta?.versionId);
  });

  it('replaces an executableCode Binary, so the deployed code is what runs; the CapabilityStatement declares $deploy', async () => {
    const binary = await medplum.createBinary(
      'exports.handler = async () => "from binary";',
      'old.js',
      'application/javascript',
    );
    const withBinary = await medplum.createResource<Bot>({
      resourceType: 'Bot',
      name: 'compiled bot',
      executableCode: { contentType: 'application/javascript', url: `Binary/${binary.id}` },
    });
    expect(await medplum.executeBot(withBinary.id as string, {}, 'application/json')).toBe('from binary');
    await medplum.post(medplum.fhirUrl('Bot', withBinary.id as string, '$deploy'), {
      code: 'exports.handler = async () => "from deploy";',
    });
    expect(await medplum.executeBot(withBinary.id as string, {}, 'application/json')).toBe('from deploy');
    expect((await medplum.readResource('Bot', withBinary.id as string)).executableCode).toBeUndefined();
    const metadata = await http<any>('GET', 'fhir/R4/metadata', {});
    const botEntry = metadata.body.rest[0].resource.find((entry: any) => entry.type === 'Bot');
    expect(botEntry.operation.map((operation: any) => operation.name)).toContain('deploy');
  });

  it('refuses a body without code (400 naming code) and keeps the deployed code', async () => {
    const before = await medplum.readResource('Bot', bot.id as string);
    const answer = await http<any>('POST', `fhir/R4/Bot/${bot.id}/$deploy`, {
      token: owner.tokens.access_token,
      body: { filename: 'index.js' },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.issue)).toContain('code');
    const after = await medplum.readResource('Bot', bot.id as string);
    expect(after.meta?.versionId).toBe(before.meta?.versionId);
  });

  it("another project's admin gets 404 and a member without Bot write gets 403; the code is unchanged", async () => {
    const before = await medplum.readResource('Bot', bot.id as string);
    const intruder = await registerProjectOwner('Deploy Intruder');
    const attack = { code: 'exports.handler = async () => "pwned";' };
    expect(
      await failureOf(
        medplumAs(intruder.tokens.access_token).post(medplum.fhirUrl('Bot', bot.id as string, '$deploy'), attack),
      ),
    ).toBe('not-found');
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    const asMember = await http<any>('POST', `fhir/R4/Bot/${bot.id}/$deploy`, { token: member.token, body: attack });
    expect(asMember.status).toBe(403);
    const readOnly = await inviteMember(owner.tokens.access_token, owner.projectId, {
      policy: { resource: [{ resourceType: 'Bot', readonly: true }] },
    });
    const asReadOnly = await http<any>('POST', `fhir/R4/Bot/${bot.id}/$deploy`, {
      token: readOnly.token,
      body: attack,
    });
    expect(asReadOnly.status).toBe(403);
    const after = await medplum.readResource('Bot', bot.id as string);
    expect(after.meta?.versionId).toBe(before.meta?.versionId);
    expect(await medplum.executeBot(bot.id as string, { n: 1 }, 'application/json')).toEqual({
      deployed: true,
      got: 1,
    });
  });
});
