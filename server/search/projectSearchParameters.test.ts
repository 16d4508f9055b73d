import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { inviteMember, type Member } from '../admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * Issue 14 item 4: a SearchParameter saved in one project changed `Task.status` for every project
 * (it widened another project's access-policy criteria and broke its searches). A project's
 * SearchParameters now apply to that project only and never replace a base definition.
 */
describe("a project's SearchParameters apply to that project only", () => {
  let clinic: Awaited<ReturnType<typeof registerProjectOwner>>;
  let attacker: Awaited<ReturnType<typeof registerProjectOwner>>;
  let frontDesk: Member;
  const tasks: Record<string, string> = {};
  const code = `b-label-${randomUUID().slice(0, 6)}`;

  const get = (token: string, path: string) => http<any>('GET', `fhir/R4/${path}`, { token });
  const ids = (answer: { body: any }) => ((answer.body.entry ?? []) as any[]).map((e) => e.resource.id).sort();
  const task = (status: string, label: string) => ({
    resourceType: 'Task',
    status,
    intent: 'order',
    description: label,
    code: { text: label },
  });

  beforeAll(async () => {
    clinic = await registerProjectOwner('Task Clinic');
    attacker = await registerProjectOwner('Task Attacker');
    const post = async (token: string, body: unknown) => {
      const answer = await http<any>('POST', 'fhir/R4/Task', { token, body });
      expect(answer.status).toBe(201);
      return answer.body.id as string;
    };
    tasks.requested = await post(clinic.tokens.access_token, task('requested', 'clinic requested'));
    tasks.completed = await post(clinic.tokens.access_token, task('completed', 'clinic completed'));
    tasks.attacker = await post(attacker.tokens.access_token, task('requested', 'attacker task'));
    // The Demo Clinic's front desk pattern: Tasks under criteria on the base `status` parameter.
    frontDesk = await inviteMember(clinic.tokens.access_token, clinic.projectId, {
      policy: { resource: [{ resourceType: 'Task', criteria: 'Task?status=requested' }] },
    });
  });

  async function clinicUnchanged() {
    expect(ids(await get(clinic.tokens.access_token, 'Task?status=completed'))).toEqual([tasks.completed]);
    expect(ids(await get(clinic.tokens.access_token, 'Task?status=requested'))).toEqual([tasks.requested]);
    // The policy's criteria still mean what they meant: one Task, not every Task.
    expect(ids(await get(frontDesk.token, 'Task'))).toEqual([tasks.requested]);
    expect((await get(frontDesk.token, `Task/${tasks.completed}`)).status).toBe(403);
  }

  it('refuses a SearchParameter that would replace Task.status, and nothing changes anywhere', async () => {
    await clinicUnchanged();
    // The attack: `status` read from a field every Task has, so that any criteria on it match all.
    const override = {
      resourceType: 'SearchParameter',
      url: 'https://attacker.example/SearchParameter/task-status',
      name: 'TaskStatus',
      status: 'active',
      description: 'status, redefined',
      code: 'status',
      base: ['Task'],
      type: 'token',
      expression: 'Task.intent',
    };
    const refused = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token: attacker.tokens.access_token,
      body: override,
    });
    expect(refused.status).toBe(400);
    expect(issueText(refused.body)).toContain('"status" of Task is a base definition');
    expect(issueExpressions(refused.body)).toEqual(['SearchParameter.code']);
    // PUT creates nothing below super admin (issue 14 item 20), so the override is tried as an update
    // of the attacker's own parameter with a new code of their own.
    const own = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token: attacker.tokens.access_token,
      body: { ...override, url: 'https://attacker.example/SearchParameter/task-own', code: 'attacker-own' },
    });
    expect(own.status).toBe(201);
    const put = await http<any>('PUT', `fhir/R4/SearchParameter/${own.body.id}`, {
      token: attacker.tokens.access_token,
      body: { ...override, id: own.body.id },
    });
    expect(put.status).toBe(400);
    expect(issueExpressions(put.body)).toEqual(['SearchParameter.code']);
    await http('DELETE', `fhir/R4/SearchParameter/${own.body.id}`, { token: attacker.tokens.access_token });
    const inBundle = await http<any>('POST', 'fhir/R4', {
      token: attacker.tokens.access_token,
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [{ request: { method: 'POST', url: 'SearchParameter' }, resource: override }],
      },
    });
    expect(inBundle.body.entry[0].response.status).toBe('400');
    await clinicUnchanged();
    // In the attacker's own project too, `status` keeps its base meaning.
    expect(ids(await get(attacker.tokens.access_token, 'Task?status=order'))).toEqual([]);
    expect(ids(await get(attacker.tokens.access_token, 'Task?status=requested'))).toEqual([tasks.attacker]);
  });

  it("applies a project's new code in that project only, and forgets it when deleted", async () => {
    const parameter = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token: attacker.tokens.access_token,
      body: {
        resourceType: 'SearchParameter',
        url: `https://attacker.example/SearchParameter/${code}`,
        name: 'TaskLabel',
        status: 'active',
        description: 'Task code text',
        code,
        base: ['Task'],
        type: 'string',
        expression: 'Task.code.text',
      },
    });
    expect(parameter.status).toBe(201);
    // New writes of the attacker's project are indexed with it; $reindex is for older ones.
    const labelled = await http<any>('POST', 'fhir/R4/Task', {
      token: attacker.tokens.access_token,
      body: task('requested', 'clinic labelled'),
    });
    expect(ids(await get(attacker.tokens.access_token, `Task?${code}=clinic`))).toEqual([labelled.body.id]);
    const metadata = async (token: string | null) =>
      (await http<any>('GET', 'fhir/R4/metadata', { token })).body.rest[0].resource
        .find((r: any) => r.type === 'Task')
        .searchParam.map((p: any) => p.name) as string[];
    expect(await metadata(attacker.tokens.access_token)).toContain(code);

    // The clinic does not know the code: not in its searches, its policy criteria or its metadata.
    const unknown = await get(clinic.tokens.access_token, `Task?${code}=clinic`);
    expect(unknown.status).toBe(400);
    expect(issueText(unknown.body)).toContain(`Unknown search parameter "${code}"`);
    expect(await metadata(clinic.tokens.access_token)).not.toContain(code);
    expect(await metadata(null)).not.toContain(code);
    // Nor does any other project, the super admin's included.
    const everywhere = await http<any>('GET', `fhir/R4/Task?${code}=clinic`);
    expect(everywhere.status).toBe(400);
    await clinicUnchanged();

    expect(
      (await http('DELETE', `fhir/R4/SearchParameter/${parameter.body.id}`, { token: attacker.tokens.access_token }))
        .status,
    ).toBe(200);
    const gone = await get(attacker.tokens.access_token, `Task?${code}=clinic`);
    expect(gone.status).toBe(400);
    expect(issueText(gone.body)).toContain(`Unknown search parameter "${code}"`);
    expect(await metadata(attacker.tokens.access_token)).not.toContain(code);
    // Base parameters are whole again in both projects.
    expect(ids(await get(attacker.tokens.access_token, 'Task?status=requested'))).toEqual(
      [tasks.attacker, labelled.body.id].sort(),
    );
    await clinicUnchanged();
  });

  it('accepts a re-upload of a base definition itself (same URL), which changes nothing', async () => {
    const base = await http<any>('GET', 'fhir/R4/SearchParameter?url=http://hl7.org/fhir/SearchParameter/Task-status');
    expect(base.body.entry.length).toBeGreaterThan(0);
    const { id: _id, meta: _meta, ...definition } = base.body.entry[0].resource;
    const copy = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token: attacker.tokens.access_token,
      body: { ...definition, expression: 'Task.intent' },
    });
    // Same URL but a different meaning is still a replacement: refused.
    expect(copy.status).toBe(400);
    const same = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token: attacker.tokens.access_token,
      body: definition,
    });
    expect(same.status).toBe(201);
    await clinicUnchanged();
    expect(ids(await get(attacker.tokens.access_token, 'Task?status=order'))).toEqual([]);
  });
});

describe("a project's own search parameters in conditional and cross-type interactions", () => {
  it('are known to conditional delete, system search and compartment search, as to type search', async () => {
    const owner = await registerProjectOwner('Own codes everywhere');
    const token = owner.tokens.access_token;
    const code = `own-${randomUUID().slice(0, 6)}`;
    const parameter = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token,
      body: {
        resourceType: 'SearchParameter',
        url: `http://example.org/SearchParameter/${code}`,
        name: code,
        status: 'active',
        description: 'own code',
        code,
        base: ['Observation'],
        type: 'string',
        expression: 'Observation.code.text',
      },
    });
    expect(parameter.status).toBe(201);
    const patient = await http<any>('POST', 'fhir/R4/Patient', { token, body: { resourceType: 'Patient' } });
    const observation = await http<any>('POST', 'fhir/R4/Observation', {
      token,
      body: {
        resourceType: 'Observation',
        status: 'final',
        code: { text: code },
        subject: { reference: `Patient/${patient.body.id}` },
      },
    });
    expect(observation.status).toBe(201);
    const ids = (answer: { body: any }) => ((answer.body.entry ?? []) as any[]).map((e) => e.resource.id);
    expect(ids(await http<any>('GET', `fhir/R4/Observation?${code}=${code}`, { token }))).toEqual([
      observation.body.id,
    ]);
    const system = await http<any>('GET', `fhir/R4?_type=Observation&${code}=${code}`, { token });
    expect(system.status).toBe(200);
    expect(ids(system)).toEqual([observation.body.id]);
    const compartment = await http<any>('GET', `fhir/R4/Patient/${patient.body.id}/Observation?${code}=${code}`, {
      token,
    });
    expect(compartment.status).toBe(200);
    expect(ids(compartment)).toEqual([observation.body.id]);
    const deleted = await http<any>('DELETE', `fhir/R4/Observation?${code}=${code}`, { token });
    expect(deleted.status).toBe(200);
    expect((await http<any>('GET', `fhir/R4/Observation/${observation.body.id}`, { token })).status).toBe(410);
  });
});
