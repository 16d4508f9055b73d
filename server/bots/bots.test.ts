import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, registerUser, uniqueEmail } from '../../tests/integration/accounts';
import { pkcePair, signIn } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
type Answer = { status: number; body: any; headers: Headers };

let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
let token: string;

async function createBot(code: string, extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await http<any>('POST', 'fhir/R4/Bot', {
    token,
    body: { resourceType: 'Bot', name: 'Test bot', code, ...extra },
  });
  expect(answer.status).toBe(201);
  return answer.body.id;
}

async function execute(
  path: string,
  body: string,
  contentType = 'application/json',
  as: string = token,
): Promise<Answer> {
  const response = await fetch(new URL(`fhir/R4/${path}`, baseUrl()), {
    method: 'POST',
    headers: { authorization: `Bearer ${as}`, 'content-type': contentType },
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

async function auditEventsOf(botId: string): Promise<any[]> {
  const answer = await http<any>('GET', `fhir/R4/AuditEvent?entity=Bot/${botId}&_sort=-_lastUpdated`, { token });
  return (answer.body.entry ?? []).map((entry: any) => entry.resource);
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  owner = await registerProjectOwner('Bot Clinic');
  token = owner.tokens.access_token;
  // Project secrets reach the bot as event.secrets (set by the super admin).
  const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`);
  const saved = await http('PUT', `fhir/R4/Project/${owner.projectId}`, {
    body: { ...project.body, secret: [{ name: 'API_KEY', valueString: 'sekret-123' }] },
  });
  expect(saved.status).toBe(200);
});

describe('Bot $execute', () => {
  it('runs the bot with the input, its secrets and a client acting as the bot', async () => {
    const patient = await http<any>('POST', 'fhir/R4/Patient', {
      token,
      body: { resourceType: 'Patient', name: [{ family: 'Botfriend' }] },
    });
    const botId = await createBot(`
      exports.handler = async (medplum, event) => {
        const patient = await medplum.readResource('Patient', event.input.patientId);
        const note = await medplum.createResource({
          resourceType: 'Communication',
          status: 'completed',
          subject: { reference: 'Patient/' + patient.id },
          payload: [{ contentString: 'Hello ' + patient.name[0].family }],
        });
        console.log('created', note.id);
        return { noteId: note.id, key: event.secrets.API_KEY.valueString, contentType: event.contentType,
                 bot: event.bot.reference, traceId: typeof event.traceId };
      };`);
    const answer = await execute(`Bot/${botId}/$execute`, JSON.stringify({ patientId: patient.body.id }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.body).toMatchObject({
      key: 'sekret-123',
      contentType: 'application/json',
      bot: `Bot/${botId}`,
      traceId: 'string',
    });
    const note = await http<any>('GET', `fhir/R4/Communication/${answer.body.noteId}`, { token });
    expect(note.status).toBe(200);
    expect(note.body.payload[0].contentString).toBe('Hello Botfriend');
    // Written by the bot's own profile, in the bot's project.
    expect(note.body.meta.author.reference).toBe(`Bot/${botId}`);
    expect(note.body.meta.project).toBe(owner.projectId);
    const [audit] = await auditEventsOf(botId);
    expect(audit).toMatchObject({ outcome: '0', outcomeDesc: `created ${answer.body.noteId}` });
  });

  it('passes other content types as text, and answers text and resources as such', async () => {
    const botId = await createBot(`
      exports.handler = async (medplum, event) => {
        if (event.contentType === 'text/plain') return 'got ' + event.input.toUpperCase();
        if (event.contentType === 'application/x-www-form-urlencoded') return { form: event.input };
        return { resourceType: 'Parameters', parameter: [{ name: 'type', valueString: typeof event.input }] };
      };`);
    const text = await execute(`Bot/${botId}/$execute`, 'hello', 'text/plain');
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toContain('text/plain');
    expect(text.body).toBe('got HELLO');
    const form = await execute(`Bot/${botId}/$execute`, 'a=1&b=2', 'application/x-www-form-urlencoded');
    expect(form.body).toEqual({ form: 'a=1&b=2' });
    const hl7 = await execute(`Bot/${botId}/$execute`, 'MSH|^~\\&|', 'x-application/hl7-v2+er7');
    expect(hl7.body).toEqual({ resourceType: 'Parameters', parameter: [{ name: 'type', valueString: 'string' }] });
    expect(hl7.headers.get('content-type')).toContain('application/fhir+json');
  });

  it('finds a bot by identifier', async () => {
    const value = `bot-${Date.now()}`;
    await createBot(`exports.handler = async () => 'by identifier';`, {
      identifier: [{ system: 'https://hearth.example/bots', value }],
    });
    const answer = await execute(
      `Bot/$execute?identifier=${encodeURIComponent(`https://hearth.example/bots|${value}`)}`,
      '{}',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('by identifier');
    const unknown = await execute(
      `Bot/$execute?identifier=${encodeURIComponent('https://hearth.example/bots|nope')}`,
      '{}',
    );
    expect(unknown.status).toBe(404);
    expect(issueText(unknown.body)).toContain('No Bot with identifier');
    const missing = await execute('Bot/$execute', '{}');
    expect(missing.status).toBe(400);
  });

  it('answers 404 for an unknown bot and for another project’s bot', async () => {
    expect((await execute('Bot/no-such-bot/$execute', '{}')).status).toBe(404);
    const botId = await createBot(`exports.handler = async () => 'mine';`);
    const other = await registerProjectOwner('Other Bot Clinic');
    expect((await execute(`Bot/${botId}/$execute`, '{}', 'application/json', other.tokens.access_token)).status).toBe(
      404,
    );
  });

  it('answers the bot’s error as a 400 OperationOutcome, with its log', async () => {
    const botId = await createBot(`
      exports.handler = async () => { console.log('checking input'); throw new Error('Input is missing a patient'); };`);
    const answer = await execute(`Bot/${botId}/$execute`, '{}');
    expect(answer.status).toBe(400);
    expect(answer.body.issue[0]).toMatchObject({
      code: 'processing',
      details: { text: 'Bot error: Input is missing a patient' },
      diagnostics: 'checking input',
    });
    const [audit] = await auditEventsOf(botId);
    expect(audit.outcome).toBe('4');
    expect(audit.outcomeDesc).toContain('Input is missing a patient');
    const noCode = await http<any>('POST', 'fhir/R4/Bot', { token, body: { resourceType: 'Bot', name: 'Empty' } });
    const empty = await execute(`Bot/${noCode.body.id}/$execute`, '{}');
    expect(empty.status).toBe(400);
    expect(issueText(empty.body)).toContain('has no code');
  });

  it('stops a hung bot with 408 and stays healthy', async () => {
    const botId = await createBot(`exports.handler = async () => { for (;;) {} };`, { timeout: 1 });
    const started = Date.now();
    const answer = await execute(`Bot/${botId}/$execute`, '{}');
    expect(answer.status).toBe(408);
    expect(answer.body.issue[0].code).toBe('timeout');
    expect(issueText(answer.body)).toBe('Bot did not finish within 1000 ms');
    expect(Date.now() - started).toBeLessThan(8000);
    const health = await fetch(new URL('healthcheck', baseUrl()));
    expect(health.status).toBe(200);
    const read = await http('GET', `fhir/R4/Bot/${botId}`, { token });
    expect(read.status).toBe(200);
  });

  it('stops a bot that eats memory with a clear 500', async () => {
    const botId = await createBot(
      `exports.handler = async () => { const keep = []; for (;;) keep.push(new Array(100000).fill(keep.length)); };`,
    );
    const answer = await execute(`Bot/${botId}/$execute`, '{}');
    expect(answer.status).toBe(500);
    expect(issueText(answer.body)).toMatch(/^Bot ran out of memory/);
  });

  it('runs code stored as a Binary (executableCode), in ES module form too', async () => {
    const upload = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/javascript' },
      body: `export async function handler(medplum, event) { return 'from binary ' + event.input.n; }`,
    });
    const binary = (await upload.json()) as { id: string };
    const botId = await createBot('', {
      code: undefined,
      executableCode: { contentType: 'application/javascript', url: `Binary/${binary.id}` },
    });
    const answer = await execute(`Bot/${botId}/$execute`, '{"n":7}');
    expect(answer.body).toBe('from binary 7');
  });

  it('enforces the bot’s own access policy on what it does', async () => {
    const botId = await createBot(`
      exports.handler = async (medplum) => {
        try {
          await medplum.createResource({ resourceType: 'Observation', status: 'final', code: { text: 'x' } });
          return 'created';
        } catch (e) { return 'refused: ' + e.message; }
      };`);
    expect((await execute(`Bot/${botId}/$execute`, '{}')).body).toBe('created');
    // Its membership (made on the first run) now gets a read-only Patient policy.
    const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token,
      body: {
        resourceType: 'AccessPolicy',
        name: 'Patients only',
        resource: [{ resourceType: 'Patient', readonly: true }],
      },
    });
    const memberships = await http<any>('GET', `fhir/R4/ProjectMembership?profile=Bot/${botId}`);
    const membership = memberships.body.entry[0].resource;
    const updated = await http('PUT', `fhir/R4/ProjectMembership/${membership.id}`, {
      body: { ...membership, accessPolicy: { reference: `AccessPolicy/${policy.body.id}` } },
    });
    expect(updated.status).toBe(200);
    const refused = await execute(`Bot/${botId}/$execute`, '{}');
    expect(refused.body).toMatch(/^refused: .*Observation/);
  });

  it("records runs as the Bot's auditEventTrigger says: on-error only failures, never none", async () => {
    const code = `exports.handler = async (medplum, event) => {
      console.log('ran');
      if (event.input.fail) throw new Error('asked to fail');
      return 'fine';
    };`;
    const onError = await createBot(code, { auditEventTrigger: 'on-error' });
    expect((await execute(`Bot/${onError}/$execute`, '{"fail":false}')).status).toBe(200);
    expect(await auditEventsOf(onError)).toEqual([]);
    expect((await execute(`Bot/${onError}/$execute`, '{"fail":true}')).status).toBe(400);
    const recorded = await auditEventsOf(onError);
    expect(recorded.map((event) => event.outcome)).toEqual(['4']);
    expect(recorded[0].outcomeDesc).toContain('asked to fail');

    const never = await createBot(code, { auditEventTrigger: 'never' });
    expect((await execute(`Bot/${never}/$execute`, '{"fail":true}')).status).toBe(400);
    expect(await auditEventsOf(never)).toEqual([]);

    // Without the field every run is recorded, as before.
    const always = await createBot(code);
    expect((await execute(`Bot/${always}/$execute`, '{"fail":false}')).status).toBe(200);
    expect((await auditEventsOf(always)).map((event) => event.outcome)).toEqual(['0']);
  });

  it('lets only project admins and members with a Bot policy entry execute', async () => {
    const botId = await createBot(`exports.handler = async () => 'ran';`);
    const member = async (policy?: Record<string, unknown>) => {
      const email = uniqueEmail('botuser');
      await registerUser(email, 'member password 1', pkcePair().challenge);
      const user = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
      const practitioner = await http<any>('POST', 'fhir/R4/Practitioner', {
        token,
        body: { resourceType: 'Practitioner', name: [{ family: 'Member' }] },
      });
      const accessPolicy = policy
        ? await http<any>('POST', 'fhir/R4/AccessPolicy', { token, body: { resourceType: 'AccessPolicy', ...policy } })
        : undefined;
      // Adding a user to a project is the super admin's (or an invitation's) job.
      const membership = await http('POST', 'fhir/R4/ProjectMembership', {
        body: {
          resourceType: 'ProjectMembership',
          project: { reference: `Project/${owner.projectId}` },
          user: { reference: `User/${user.body.entry[0].resource.id}` },
          profile: { reference: `Practitioner/${practitioner.body.id}` },
          ...(accessPolicy ? { accessPolicy: { reference: `AccessPolicy/${accessPolicy.body.id}` } } : {}),
        },
      });
      expect(membership.status).toBe(201);
      return (await signIn(baseUrl(), email, 'member password 1')).access_token;
    };
    const plain = await member();
    const refused = await execute(`Bot/${botId}/$execute`, '{}', 'application/json', plain);
    expect(refused.status).toBe(403);
    expect(issueText(refused.body)).toContain('may execute bots');
    const readOnly = await member({ name: 'read bots', resource: [{ resourceType: 'Bot', readonly: true }] });
    expect((await execute(`Bot/${botId}/$execute`, '{}', 'application/json', readOnly)).status).toBe(403);
    const operator = await member({ name: 'run bots', resource: [{ resourceType: 'Bot' }] });
    const allowed = await execute(`Bot/${botId}/$execute`, '{}', 'application/json', operator);
    expect(allowed.status).toBe(200);
    expect(allowed.body).toBe('ran');
  });
});

describe('bots triggered by Subscriptions', () => {
  it('runs the bot with each created or updated resource that matches the criteria, and records each run', async () => {
    const botId = await createBot(`
      exports.handler = async (medplum, event) => {
        const task = event.input;
        if (task.description === 'explode') throw new Error('cannot handle ' + task.id);
        await medplum.createResource({
          resourceType: 'Flag', status: 'active', code: { text: 'seen ' + task.id + ' ' + task.status },
          subject: { display: 'whoever' },
        });
      };`);
    const subscription = await http<any>('POST', 'fhir/R4/Subscription', {
      token,
      body: {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'Run the bot on urgent tasks',
        criteria: 'Task?priority=urgent',
        channel: { type: 'rest-hook', endpoint: `Bot/${botId}` },
      },
    });
    expect(subscription.status).toBe(201);
    const task = (body: Record<string, unknown>) =>
      http<any>('POST', 'fhir/R4/Task', { token, body: { resourceType: 'Task', intent: 'order', ...body } });
    const ignored = await task({ status: 'requested', priority: 'routine' });
    const urgent = await task({ status: 'requested', priority: 'urgent' });
    const flagFor = (text: string) => async () => {
      const found = await http<any>('GET', `fhir/R4/Flag?_count=50`, { token });
      return (found.body.entry ?? []).find((entry: any) => entry.resource.code.text === text)?.resource;
    };
    const flag = await until(flagFor(`seen ${urgent.body.id} requested`), 'the bot to flag the created task');
    expect(flag.meta.author.reference).toBe(`Bot/${botId}`);
    // An update that still matches runs it again.
    await http('PUT', `fhir/R4/Task/${urgent.body.id}`, { token, body: { ...urgent.body, status: 'in-progress' } });
    await until(flagFor(`seen ${urgent.body.id} in-progress`), 'the bot to flag the updated task');
    // A failing run is recorded with its error.
    const exploding = await task({ status: 'requested', priority: 'urgent', description: 'explode' });
    const failure = await until(async () => {
      const events = await auditEventsOf(botId);
      return events.find((event) => event.outcome === '4');
    }, 'the failed run to be recorded');
    expect(failure.outcomeDesc).toContain(`cannot handle ${exploding.body.id}`);
    expect(failure.entity.map((entity: any) => entity.what.reference)).toContain(
      `Subscription/${subscription.body.id}`,
    );
    const events = await auditEventsOf(botId);
    expect(events.filter((event) => event.outcome === '0')).toHaveLength(2);
    // The routine task never ran the bot.
    expect(await flagFor(`seen ${ignored.body.id} requested`)()).toBeUndefined();
    expect(events.some((event) => event.entity.some((e: any) => e.what.reference === `Task/${ignored.body.id}`))).toBe(
      false,
    );
  });
});
