import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MedplumClient } from '@medplum/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../fhirClient';
import { registerProjectOwner, tokenRequest } from '../accounts';
import { inviteMember } from '../../../server/admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** Issue 18: `POST /admin/projects/{id}/bot` and `/client`, over HTTP and through `@medplum/cli`. */

const run = promisify(execFile);
const cli = join(process.cwd(), 'node_modules/@medplum/cli/dist/cjs/index.cjs');

async function countOf(token: string, query: string): Promise<number> {
  const answer = await http<any>('GET', `fhir/R4/${query}${query.includes('?') ? '&' : '?'}_summary=count`, { token });
  expect(answer.status).toBe(200);
  return answer.body.total;
}

describe('POST /admin/projects/{id}/bot and /client', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let intruder: Awaited<ReturnType<typeof registerProjectOwner>>;

  beforeAll(async () => {
    owner = await registerProjectOwner('Apps Clinic');
    intruder = await registerProjectOwner('Apps Intruder');
  });

  it('creates a Bot with its membership in the project', async () => {
    const answer = await http<any>('POST', `admin/projects/${owner.projectId}/bot`, {
      token: owner.tokens.access_token,
      body: { name: 'Lab importer', description: 'reads HL7' },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.resourceType).toBe('Bot');
    expect(answer.body.name).toBe('Lab importer');
    expect(answer.body.meta.project).toBe(owner.projectId);
    expect(await countOf(owner.tokens.access_token, `ProjectMembership?user=Bot/${answer.body.id}`)).toBe(1);
  });

  it('creates a ClientApplication with a secret that signs in by client_credentials', async () => {
    const answer = await http<any>('POST', `admin/projects/${owner.projectId}/client`, {
      token: owner.tokens.access_token,
      body: { name: 'Lab feed', redirectUri: 'https://lab.example/callback', launchUri: 'https://lab.example/launch' },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.resourceType).toBe('ClientApplication');
    expect(answer.body.launchUri).toBe('https://lab.example/launch');
    expect(answer.body.secret).toMatch(/^[0-9a-f]{64}$/);
    const token = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: answer.body.id,
      client_secret: answer.body.secret,
    });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.access_token).toBeTruthy();
  });

  it('refuses bad input with the field named, and writes nothing', async () => {
    const before = await countOf(owner.tokens.access_token, 'Bot');
    const noName = await http<any>('POST', `admin/projects/${owner.projectId}/bot`, {
      token: owner.tokens.access_token,
      body: { description: 'no name' },
    });
    expect(noName.status).toBe(400);
    expect(JSON.stringify(noName.body.issue)).toContain('name');
    const badRuntime = await http<any>('POST', `admin/projects/${owner.projectId}/bot`, {
      token: owner.tokens.access_token,
      body: { name: 'x', runtimeVersion: 'python' },
    });
    expect(badRuntime.status).toBe(400);
    const badRedirect = await http<any>('POST', `admin/projects/${owner.projectId}/client`, {
      token: owner.tokens.access_token,
      body: { name: 'x', redirectUri: 'javascript:alert(1)' },
    });
    expect(badRedirect.status).toBe(400);
    // Plain http to another host would carry authorization codes in clear: the ClientApplication rule.
    const clientsBefore = await countOf(owner.tokens.access_token, 'ClientApplication');
    const clearRedirect = await http<any>('POST', `admin/projects/${owner.projectId}/client`, {
      token: owner.tokens.access_token,
      body: { name: 'x', redirectUri: 'http://lab.example/callback' },
    });
    expect(clearRedirect.status).toBe(400);
    expect(JSON.stringify(clearRedirect.body.issue)).toContain('redirectUri');
    const scriptLaunch = await http<any>('POST', `admin/projects/${owner.projectId}/client`, {
      token: owner.tokens.access_token,
      body: { name: 'x', launchUri: 'javascript:alert(1)//' },
    });
    expect(scriptLaunch.status).toBe(400);
    expect(scriptLaunch.body.issue[0]).toMatchObject({
      expression: ['launchUri'],
      details: { text: 'Launch URI scheme "javascript:" is not allowed: use https' },
    });
    expect(await countOf(owner.tokens.access_token, 'ClientApplication')).toBe(clientsBefore);
    expect(await countOf(owner.tokens.access_token, 'Bot')).toBe(before);
  });

  it("another project's admin gets 404 and a plain member 403, and neither writes anything", async () => {
    const bots = await countOf(owner.tokens.access_token, 'Bot');
    const clients = await countOf(owner.tokens.access_token, 'ClientApplication');
    for (const route of ['bot', 'client']) {
      const attack = await http<any>('POST', `admin/projects/${owner.projectId}/${route}`, {
        token: intruder.tokens.access_token,
        body: { name: 'planted' },
      });
      expect(attack.status).toBe(404);
    }
    const member = await inviteMember(owner.tokens.access_token, owner.projectId);
    for (const route of ['bot', 'client']) {
      const attack = await http<any>('POST', `admin/projects/${owner.projectId}/${route}`, {
        token: member.token,
        body: { name: 'planted' },
      });
      expect(attack.status).toBe(403);
    }
    expect(await countOf(owner.tokens.access_token, 'Bot')).toBe(bots);
    expect(await countOf(owner.tokens.access_token, 'ClientApplication')).toBe(clients);
    expect(await countOf(intruder.tokens.access_token, 'Bot')).toBe(0);
  });

  it('`medplum bot create` (the real CLI, as a child process with client credentials) creates and deploys a bot that runs', async () => {
    const client = await http<any>('POST', `admin/projects/${owner.projectId}/client`, {
      token: owner.tokens.access_token,
      body: { name: 'CI deployer' },
    });
    expect(client.status).toBe(201);
    // The CLI's client must administer the project to create bots: the owner makes its membership admin.
    const memberships = await http<any>('GET', `fhir/R4/ProjectMembership?user=ClientApplication/${client.body.id}`, {
      token: owner.tokens.access_token,
    });
    const membership = memberships.body.entry[0].resource;
    const promoted = await http<any>('PUT', `fhir/R4/ProjectMembership/${membership.id}`, {
      token: owner.tokens.access_token,
      body: { ...membership, admin: true },
    });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);

    const folder = await mkdtemp(join(tmpdir(), 'hearth-cli-'));
    await writeFile(join(folder, 'hello.ts'), 'export async function handler() { return "source"; }\n');
    await writeFile(
      join(folder, 'hello.js'),
      'exports.handler = async (medplum, event) => ({ from: "cli", n: event.input.n });\n',
    );
    const { stdout } = await run(
      process.execPath,
      [
        cli,
        'bot',
        'create',
        'cli-bot',
        owner.projectId,
        join(folder, 'hello.ts'),
        join(folder, 'hello.js'),
        '--no-write-config',
      ],
      {
        cwd: folder,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: folder,
          MEDPLUM_BASE_URL: baseUrl(),
          MEDPLUM_CLIENT_ID: client.body.id,
          MEDPLUM_CLIENT_SECRET: client.body.secret,
        },
        timeout: 60_000,
      },
    );
    const botId = /Bot created: ([A-Za-z0-9-]+)/.exec(stdout)?.[1];
    expect(botId, stdout).toBeTruthy();
    const medplum = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
    medplum.setAccessToken(owner.tokens.access_token);
    const bot = await medplum.readResource('Bot', botId as string);
    expect(bot.name).toBe('cli-bot');
    expect(bot.sourceCode?.url).toBeTruthy();
    expect(await medplum.executeBot(botId as string, { n: 3 }, 'application/json')).toEqual({ from: 'cli', n: 3 });
  });
});
