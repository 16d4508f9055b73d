import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import {
  postJson,
  registerProjectOwner,
  registerUser,
  signInWithScope,
  uniqueEmail,
} from '../../tests/integration/accounts';
import { pkcePair, signIn } from '../../tests/integration/signIn';
import { SocketTestClient, statusOf } from '../realtime/socketTestClient.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
type Answer = { status: number; body: any };

/**
 * Replays the access-enforcement attacks of issue 14 (items 9, 10, 14, 18 and 20): hidden fields
 * searched, patients writing about others, secrets in nested answers, SMART scopes ignored,
 * cross-project references and the update-as-create id oracle.
 */
describe('access enforcement (issue 14)', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let other: Awaited<ReturnType<typeof registerProjectOwner>>;
  const ids: Record<string, string> = {};
  const as = (token: string) => ({
    token,
    get: (path: string): Promise<Answer> => http('GET', `fhir/R4/${path}`, { token }),
    post: (path: string, body: unknown): Promise<Answer> => http('POST', `fhir/R4/${path}`, { token, body }),
    put: (path: string, body: unknown): Promise<Answer> => http('PUT', `fhir/R4/${path}`, { token, body }),
    graphql: (query: string): Promise<Answer> => http('POST', 'fhir/R4/$graphql', { token, body: { query } }),
    bundle: (type: string, entry: unknown[]): Promise<Answer> =>
      http('POST', 'fhir/R4', { token, body: { resourceType: 'Bundle', type, entry } }),
  });
  const admin = () => as(owner.tokens.access_token);

  /** A user of the owner's project with `policy` (undefined: none) and `profile`; signs in with `scope` if given. */
  async function member(
    policy: Record<string, unknown> | undefined,
    profile: string,
    scope?: string,
  ): Promise<ReturnType<typeof as>> {
    const email = uniqueEmail('member');
    const password = 'member password 1';
    await registerUser(email, password, pkcePair().challenge);
    const user = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
    const accessPolicy = policy
      ? await admin().post('AccessPolicy', { resourceType: 'AccessPolicy', name: 'test', ...policy })
      : undefined;
    const membership = await as(inject('adminToken')).post('ProjectMembership', {
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${owner.projectId}` },
      user: { reference: `User/${user.body.entry[0].resource.id}` },
      profile: { reference: profile },
      ...(accessPolicy ? { accessPolicy: { reference: `AccessPolicy/${accessPolicy.body.id}` } } : {}),
    });
    expect(membership.status).toBe(201);
    const tokens = scope ? await signInWithScope(email, password, scope) : await signIn(baseUrl(), email, password);
    return as(tokens.access_token);
  }

  async function practitioner(): Promise<string> {
    const created = await admin().post('Practitioner', { resourceType: 'Practitioner', name: [{ family: 'Staff' }] });
    return `Practitioner/${created.body.id}`;
  }

  const observation = (subject: string, category: string, extra: Record<string, unknown> = {}) => ({
    resourceType: 'Observation',
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: category }] }],
    code: { text: 'Pulse' },
    subject: { reference: `Patient/${subject}` },
    ...extra,
  });

  beforeAll(async () => {
    owner = await registerProjectOwner('Enforcement Clinic');
    other = await registerProjectOwner('Attacker Clinic');
    const patient = async (family: string) =>
      (await admin().post('Patient', { resourceType: 'Patient', name: [{ family }] })).body.id as string;
    ids.alice = await patient('Alice');
    ids.bob = await patient('Bob');
    ids.aliceVital = (await admin().post('Observation', observation(ids.alice, 'vital-signs'))).body.id;
    ids.aliceLab = (await admin().post('Observation', observation(ids.alice, 'laboratory'))).body.id;
    ids.bobVital = (await admin().post('Observation', observation(ids.bob, 'vital-signs'))).body.id;
    ids.encounter = (
      await admin().post('Encounter', {
        resourceType: 'Encounter',
        status: 'finished',
        class: { code: 'AMB' },
        subject: { reference: `Patient/${ids.alice}` },
        reasonCode: [{ coding: [{ system: 'http://snomed.info/sct', code: '444814009' }], text: 'Sore throat' }],
      })
    ).body.id;
    ids.foreignPatient = (
      await as(other.tokens.access_token).post('Patient', { resourceType: 'Patient', name: [{ family: 'Foreign' }] })
    ).body.id;
  }, 180_000);

  describe('item 9: hidden fields cannot be searched', () => {
    // The demo "Front desk" policy's shape.
    const frontDesk = {
      resource: [
        { resourceType: 'Patient', readonlyFields: ['identifier'] },
        { resourceType: 'Appointment' },
        { resourceType: 'Encounter', readonly: true, hiddenFields: ['reasonCode', 'diagnosis'] },
      ],
    };

    it('refuses filters, sorts, _has, includes and GraphQL arguments that read a hidden field', async () => {
      const desk = await member(frontDesk, await practitioner());
      // The attack: finding the Encounter by its hidden reason.
      const probe = await desk.get('Encounter?reason-code=444814009');
      expect(probe.status).toBe(403);
      expect(issueExpressions(probe.body)).toEqual(['reason-code']);
      expect(issueText(probe.body)).toBe(
        'Forbidden: search parameter "reason-code" reads Encounter.reasonCode, which your access policy hides',
      );
      const sorted = await desk.get('Encounter?_sort=reason-code');
      expect(sorted.status).toBe(403);
      expect(issueExpressions(sorted.body)).toEqual(['_sort']);
      const has = await desk.get('Patient?_has:Encounter:patient:reason-code=444814009');
      expect(has.status).toBe(403);
      expect(issueExpressions(has.body)).toEqual(['_has:Encounter:patient:reason-code']);
      expect((await desk.get('Encounter?diagnosis=Condition/x')).status).toBe(403);
      expect((await desk.get('Encounter?_include=Encounter:diagnosis')).status).toBe(403);
      const graph = await desk.graphql('{ EncounterList(reason_code: "444814009") { id } }');
      expect(graph.body.errors[0].message).toContain('search parameter "reason-code" reads Encounter.reasonCode');
      expect(graph.body.data?.EncounterList ?? null).toBeNull();
      // In a batch, the entry is refused on its own.
      const batch = await desk.bundle('batch', [
        { request: { method: 'GET', url: 'Encounter?reason-code=444814009' } },
        { request: { method: 'GET', url: 'Encounter?status=finished' } },
      ]);
      expect(batch.body.entry.map((e: any) => e.response.status)).toEqual(['403', '200']);
      // What is visible stays searchable, and the hidden field stays out of the answer.
      const visible = await desk.get(`Encounter?status=finished&subject=Patient/${ids.alice}`);
      expect(visible.status).toBe(200);
      expect(visible.body.entry.map((e: any) => e.resource.id)).toEqual([ids.encounter]);
      expect(visible.body.entry[0].resource.reasonCode).toBeUndefined();
      expect((await desk.get('Patient?name=Alice')).status).toBe(200);
      // Without the policy, the same search works (the owner is not restricted).
      const open = await admin().get('Encounter?reason-code=444814009');
      expect(open.body.entry.map((e: any) => e.resource.id)).toEqual([ids.encounter]);
    });
  });

  describe('item 10: compartment policies check writes', () => {
    // The demo "Patient portal" policy's shape.
    const portal = { resource: [{ resourceType: '*', compartment: { reference: '%profile' } }] };

    it('a patient cannot write about another patient, nor create Patients', async () => {
      const patient = await member(portal, `Patient/${ids.alice}`);
      const before = await admin().get(`Observation?subject=Patient/${ids.bob}&_total=accurate`);
      // About someone else, even when the patient also names themselves.
      const aboutBob = await patient.post(
        'Observation',
        observation(ids.bob, 'survey', { performer: [{ reference: `Patient/${ids.alice}` }] }),
      );
      expect(aboutBob.status).toBe(403);
      expect(issueText(aboutBob.body)).toContain('outside the compartment or criteria');
      expect((await patient.post('Observation', observation(ids.bob, 'survey'))).status).toBe(403);
      // New Patients, plain or linked to the patient themselves.
      expect((await patient.post('Patient', { resourceType: 'Patient', name: [{ family: 'Fake' }] })).status).toBe(403);
      const linked = await patient.post('Patient', {
        resourceType: 'Patient',
        link: [{ other: { reference: `Patient/${ids.alice}` }, type: 'seealso' }],
      });
      expect(linked.status).toBe(403);
      // Moving one's own record into another compartment (after) is refused…
      const own = await patient.post('Observation', observation(ids.alice, 'survey'));
      expect(own.status).toBe(201);
      const moved = await patient.put(`Observation/${own.body.id}`, {
        ...own.body,
        performer: [{ reference: `Patient/${ids.bob}` }],
      });
      expect(moved.status).toBe(403);
      // …as is changing a record that is already in another patient's compartment (before).
      const shared = await admin().post(
        'Observation',
        observation(ids.alice, 'survey', { performer: [{ reference: `Patient/${ids.bob}` }] }),
      );
      const sharedRead = await patient.get(`Observation/${shared.body.id}`);
      expect(sharedRead.status).toBe(200);
      expect(
        (await patient.put(`Observation/${shared.body.id}`, { ...sharedRead.body, status: 'amended' })).status,
      ).toBe(403);
      // The patient still writes their own records and their own Patient resource.
      const mine = await patient.get(`Patient/${ids.alice}`);
      expect((await patient.put(`Patient/${ids.alice}`, { ...mine.body, gender: 'female' })).status).toBe(200);
      // Nothing refused was stored.
      const after = await admin().get(`Observation?subject=Patient/${ids.bob}&_total=accurate`);
      expect(after.body.total).toBe(before.body.total);
      expect((await admin().get(`Observation/${own.body.id}`)).body.performer).toBeUndefined();
    });
  });

  describe('item 14: protected fields are stripped at every depth', () => {
    it('batch and transaction searches, includes and history of User and Login carry no secrets', async () => {
      const superAdmin = as(inject('adminToken'));
      const secretFields: Record<string, string[]> = {
        User: ['passwordHash', 'mfaSecret'],
        Login: ['code', 'refreshSecret', 'cookie', 'codeChallenge'],
      };
      /** Every `Type.field` secret found anywhere in an answer. */
      const leaks = (value: unknown, found: string[] = []): string[] => {
        if (Array.isArray(value)) value.forEach((item) => leaks(item, found));
        else if (typeof value === 'object' && value !== null) {
          const record = value as Record<string, unknown>;
          for (const field of secretFields[record.resourceType as string] ?? []) {
            if (field in record) found.push(`${String(record.resourceType)}.${field}`);
          }
          Object.values(record).forEach((child) => leaks(child, found));
        }
        return found;
      };
      // A sign-in left pending holds its code's hash and PKCE challenge.
      const pending = await postJson('auth/login', {
        email: owner.email,
        password: owner.password,
        codeChallenge: pkcePair().challenge,
        codeChallengeMethod: 'S256',
      });
      expect(typeof pending.body.code).toBe('string');
      // The attack: a batch GET User?… answered with the users' password hashes.
      const batch = await superAdmin.bundle('batch', [
        { request: { method: 'GET', url: `User?email:exact=${encodeURIComponent(owner.email)}` } },
        { request: { method: 'GET', url: `Login?_id=${pending.body.login}` } },
        { request: { method: 'GET', url: `ProjectMembership?_include=ProjectMembership:user&_count=5` } },
      ]);
      expect(batch.status).toBe(200);
      const users = batch.body.entry[0].resource.entry;
      expect(users).toHaveLength(1);
      expect(users[0].resource.email).toBe(owner.email);
      expect(batch.body.entry[1].resource.entry[0].resource.id).toBe(pending.body.login);
      expect(batch.body.entry[2].resource.entry.some((e: any) => e.resource.resourceType === 'User')).toBe(true);
      expect(leaks(batch.body)).toEqual([]);
      const transaction = await superAdmin.bundle('transaction', [
        { request: { method: 'GET', url: `User?email:exact=${encodeURIComponent(owner.email)}` } },
        { request: { method: 'GET', url: `User/${users[0].resource.id}/_history` } },
      ]);
      expect(transaction.status).toBe(200);
      expect(transaction.body.entry[1].resource.entry.length).toBeGreaterThan(0);
      expect(leaks(transaction.body)).toEqual([]);
      const graph = await superAdmin.graphql(`{ User(id: "${users[0].resource.id}") { id email } }`);
      expect(graph.body.data.User.email).toBe(owner.email);
    });
  });

  describe('item 18: SMART scopes narrow the policy', () => {
    it('a user/Observation.read token reads Observations and nothing else, on every path', async () => {
      const app = await member(undefined, await practitioner(), 'openid user/Observation.read');
      // The attack: creating a Patient with a read-only Observation grant.
      const created = await app.post('Patient', { resourceType: 'Patient', name: [{ family: 'Scoped' }] });
      expect(created.status).toBe(403);
      expect(issueText(created.body)).toBe("Forbidden: the token's scopes do not allow create of Patient");
      expect((await app.get(`Observation/${ids.aliceVital}`)).status).toBe(200);
      expect((await app.get('Observation?_count=5')).status).toBe(200);
      expect((await app.post('Observation', observation(ids.alice, 'survey'))).status).toBe(403);
      expect((await app.get(`Patient/${ids.alice}`)).status).toBe(403);
      expect((await app.get('Patient')).status).toBe(403);
      // Includes of what the scopes do not grant are left out.
      const included = await app.get(`Observation?_id=${ids.aliceVital}&_include=Observation:subject`);
      expect(included.body.entry.map((e: any) => e.resource.resourceType)).toEqual(['Observation']);
      // Chains cannot reach through to Patients either.
      const chained = await app.get('Observation?subject:Patient.name=Alice');
      expect(chained.body.entry ?? []).toEqual([]);
      const batch = await app.bundle('batch', [
        { request: { method: 'POST', url: 'Patient' }, resource: { resourceType: 'Patient' } },
        { request: { method: 'GET', url: `Observation/${ids.aliceVital}` } },
      ]);
      expect(batch.body.entry.map((e: any) => e.response.status)).toEqual(['403', '200']);
      const graph = await app.graphql('{ PatientList(_count: 1) { id } }');
      expect(graph.body.errors[0].message).toBe("Forbidden: the token's scopes do not allow search of Patient");
      expect((await app.get(`Patient/${ids.alice}/$everything`)).status).toBe(403);
      const binary = await http('POST', 'fhir/R4/Binary', {
        token: null,
        rawBody: 'hello',
        headers: { authorization: `Bearer ${app.token}`, 'content-type': 'text/plain' },
      });
      expect(binary.status).toBe(403);
    });

    it("a project admin's scoped token cannot invite people or run bots", async () => {
      const tokens = await signInWithScope(owner.email, owner.password, 'openid user/Observation.read');
      const invite = await http('POST', `admin/projects/${owner.projectId}/invite`, {
        token: tokens.access_token,
        body: { resourceType: 'Practitioner', firstName: 'Eve', lastName: 'Scoped', email: uniqueEmail('eve') },
      });
      expect(invite.status).toBe(403);
      expect(issueText(invite.body)).toBe("Forbidden: the token's scopes do not allow create of ProjectMembership");
      const bot = await http('POST', 'fhir/R4/Bot/any-bot/$execute', { token: tokens.access_token, body: {} });
      expect(bot.status).toBe(403);
      expect(issueText(bot.body)).toBe("Forbidden: the token's scopes do not allow update of Bot");
      // The same admin signed in without resource scopes may invite.
      const full = await http('POST', `admin/projects/${owner.projectId}/invite`, {
        token: owner.tokens.access_token,
        body: { resourceType: 'Practitioner', firstName: 'Eve', lastName: 'Full', email: uniqueEmail('eve') },
      });
      expect(full.status).toBe(200);
    });

    it("narrow a super admin's token too", async () => {
      const tokens = await signInWithScope('admin@example.com', inject('adminPassword'), 'openid user/Observation.rs');
      const scoped = as(tokens.access_token);
      expect((await scoped.post('Patient', { resourceType: 'Patient' })).status).toBe(403);
      expect((await scoped.get(`Patient/${ids.alice}`)).status).toBe(403);
      // Still every project's Observations, as super admin, but nothing else.
      expect((await scoped.get(`Observation/${ids.aliceVital}`)).status).toBe(200);
      const history = await scoped.get('_history?_count=50');
      expect(history.status).toBe(200);
      expect(history.body.entry.every((e: any) => e.resource.resourceType === 'Observation')).toBe(true);
      const current = await scoped.get(`Observation/${ids.aliceVital}`);
      expect((await scoped.put(`Observation/${ids.aliceVital}`, current.body)).status).toBe(403);
    });

    it('$everything holds only the types the scopes grant', async () => {
      const app = await member(undefined, await practitioner(), 'openid user/Patient.read user/Observation.read');
      const everything = await app.get(`Patient/${ids.alice}/$everything`);
      expect(everything.status).toBe(200);
      const types = new Set(everything.body.entry.map((e: any) => e.resource.resourceType));
      expect([...types].sort()).toEqual(['Observation', 'Patient']);
      // The owner's answer has the Encounter the scoped token does not see.
      const full = await admin().get(`Patient/${ids.alice}/$everything`);
      expect(full.body.entry.some((e: any) => e.resource.resourceType === 'Encounter')).toBe(true);
    });

    it('websocket subscriptions notify only what the scopes let the token read', async () => {
      const vitals = 'http://terminology.hl7.org/CodeSystem/observation-category|vital-signs';
      const app = await member(
        undefined,
        await practitioner(),
        `openid user/Subscription.cruds user/Observation.rs?category=${vitals}`,
      );
      const subscribe = async (criteria: string) =>
        (
          await app.post('Subscription', {
            resourceType: 'Subscription',
            status: 'active',
            reason: 'scope test',
            criteria,
            channel: { type: 'websocket' },
          })
        ).body.id as string;
      const observations = await subscribe(`Observation?subject=Patient/${ids.alice}`);
      const encounters = await subscribe(`Encounter?subject=Patient/${ids.alice}`);
      const client = await SocketTestClient.open(baseUrl().replace(/^http/, 'ws') + 'ws/subscriptions-r4');
      try {
        const bindingToken = async (id: string) =>
          (await app.get(`Subscription/${id}/$get-ws-binding-token`)).body.parameter.find(
            (p: any) => p.name === 'token',
          ).valueString as string;
        await client.bind(await bindingToken(observations), observations);
        // Criteria of a type the scopes do not let it search are refused at binding, saying why.
        client.send({ type: 'bind-with-token', payload: { token: await bindingToken(encounters) } });
        const refused = await client.next((m) => m.type === 'error' || statusOf(m)?.type === 'handshake');
        expect(refused.type).toBe('error');
        expect(JSON.stringify(refused.payload)).toContain("the token's scopes do not allow search of Encounter");
        await admin().post('Encounter', {
          resourceType: 'Encounter',
          status: 'planned',
          class: { code: 'AMB' },
          subject: { reference: `Patient/${ids.alice}` },
        });
        await admin().post('Observation', observation(ids.alice, 'laboratory'));
        const vital = await admin().post('Observation', observation(ids.alice, 'vital-signs'));
        const notification = await client.notification(observations);
        expect(notification.entry[1].resource.id).toBe(vital.body.id);
        expect(client.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('v2 scopes: letters and a category restriction', async () => {
      const app = await member(
        undefined,
        await practitioner(),
        'openid user/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|vital-signs user/Patient.c',
      );
      const found = await app.get('Observation?_count=100');
      expect(found.status).toBe(200);
      const foundIds = found.body.entry.map((e: any) => e.resource.id);
      expect(foundIds).toContain(ids.aliceVital);
      expect(foundIds).not.toContain(ids.aliceLab);
      expect((await app.get(`Observation/${ids.aliceLab}`)).status).toBe(403);
      expect((await app.get(`Observation/${ids.aliceVital}`)).status).toBe(200);
      // `c` without `r`: may create a Patient, not read one.
      const patient = await app.post('Patient', { resourceType: 'Patient', name: [{ family: 'Created' }] });
      expect(patient.status).toBe(201);
      expect((await app.get(`Patient/${patient.body.id}`)).status).toBe(403);
      expect((await app.put(`Patient/${patient.body.id}`, patient.body)).status).toBe(403);
    });

    it('patient/ scopes are limited to the patient of the sign-in, and grant nothing without one', async () => {
      // A patient whose policy is broader than their compartment: the scope narrows it to them.
      const patient = await member({ resource: [{ resourceType: '*' }] }, `Patient/${ids.alice}`, 'patient/*.rs');
      const seen = await patient.get('Observation?_count=100');
      expect(seen.body.entry.length).toBeGreaterThan(0);
      expect(seen.body.entry.every((e: any) => e.resource.subject.reference === `Patient/${ids.alice}`)).toBe(true);
      expect((await patient.get(`Observation/${ids.bobVital}`)).status).toBe(403);
      expect((await patient.post('Observation', observation(ids.alice, 'survey'))).status).toBe(403);
      // A practitioner with patient/ scopes and no launch patient.
      const staff = await member(undefined, await practitioner(), 'openid patient/Observation.read');
      expect((await staff.get('Observation')).status).toBe(403);
    });

    it('a sign-in without resource scopes keeps the full policy (the app and Medplum clients)', async () => {
      const app = await member(undefined, await practitioner(), 'openid profile offline_access');
      expect((await app.post('Patient', { resourceType: 'Patient', name: [{ family: 'Full' }] })).status).toBe(201);
      expect((await app.get('Observation?_count=1')).status).toBe(200);
    });
  });

  describe('item 20: references and ids of other projects', () => {
    it('refuses references to resources the caller cannot read, the same way for absent and foreign ones', async () => {
      const attacker = as(other.tokens.access_token);
      const foreign = await attacker.post('Observation', observation(ids.alice, 'survey'));
      const absent = await attacker.post('Observation', observation('never-existed-1', 'survey'));
      expect(foreign.status).toBe(400);
      expect(issueExpressions(foreign.body)).toEqual(['Observation.subject.reference']);
      expect(issueText(foreign.body)).toBe('Invalid reference: it must point at a current resource of your project');
      expect(absent.status).toBe(foreign.status);
      expect(absent.body).toEqual(foreign.body);
      // Its own patients, contained and absolute references are fine.
      const ok = await attacker.post('Observation', {
        ...observation(ids.foreignPatient, 'survey'),
        contained: [{ resourceType: 'Practitioner', id: 'p1' }],
        performer: [{ reference: '#p1' }, { reference: 'https://elsewhere.example/fhir/Practitioner/9' }],
      });
      expect(ok.status).toBe(201);
      // Nested paths are named; a refused write stores nothing.
      const nested = await attacker.post('Observation', {
        ...observation(ids.foreignPatient, 'survey'),
        performer: [{ reference: `Patient/${ids.foreignPatient}` }, { reference: `Patient/${ids.bob}` }],
      });
      expect(issueExpressions(nested.body)).toEqual(['Observation.performer[1].reference']);
      const stored = await attacker.get(`Observation?subject=Patient/${ids.foreignPatient}&_total=accurate`);
      expect(stored.body.total).toBe(1);
    });

    it('a transaction may point at what it creates, and rolls back whole on a foreign reference', async () => {
      const attacker = as(other.tokens.access_token);
      const entry = (subject: string) => [
        {
          fullUrl: 'urn:uuid:11111111-1111-4111-8111-111111111111',
          request: { method: 'POST', url: 'Observation' },
          // Points at the Patient created by the next entry.
          resource: { ...observation('x', 'survey'), subject: { reference: subject } },
        },
        {
          fullUrl: 'urn:uuid:22222222-2222-4222-8222-222222222222',
          request: { method: 'POST', url: 'Patient' },
          resource: { resourceType: 'Patient', name: [{ family: 'Forward' }] },
        },
      ];
      const forward = await attacker.bundle('transaction', entry('urn:uuid:22222222-2222-4222-8222-222222222222'));
      expect(forward.status).toBe(200);
      const before = await attacker.get('Patient?_total=accurate&name=Forward');
      const refused = await attacker.bundle('transaction', [
        ...entry('urn:uuid:22222222-2222-4222-8222-222222222222'),
        {
          request: { method: 'POST', url: 'Observation' },
          resource: observation(ids.bob, 'survey'),
        },
      ]);
      expect(refused.status).toBe(400);
      expect(issueExpressions(refused.body)).toEqual(['Observation.subject.reference']);
      expect((await attacker.get('Patient?_total=accurate&name=Forward')).body.total).toBe(before.body.total);
    });

    it('update-as-create answers the same for an id used by another project and one never used', async () => {
      const attacker = as(other.tokens.access_token);
      const existingElsewhere = await attacker.put(`Patient/${ids.alice}`, { resourceType: 'Patient', id: ids.alice });
      const neverExisted = await attacker.put('Patient/never-existed-2', {
        resourceType: 'Patient',
        id: 'never-existed-2',
      });
      expect(existingElsewhere.status).toBe(404);
      expect(neverExisted.status).toBe(existingElsewhere.status);
      expect(neverExisted.body).toEqual(existingElsewhere.body);
      expect(issueText(neverExisted.body)).toContain('create new resources with POST');
      // Nothing was created, and the other project's Patient is untouched.
      expect((await http('GET', 'fhir/R4/Patient/never-existed-2')).status).toBe(404);
      expect((await admin().get(`Patient/${ids.alice}`)).body.name[0].family).toBe('Alice');
      // Updating its own resources works as before; super admins may still choose ids.
      const own = await attacker.get(`Patient/${ids.foreignPatient}`);
      expect((await attacker.put(`Patient/${ids.foreignPatient}`, { ...own.body, active: true })).status).toBe(200);
      const chosen = await http('PUT', 'fhir/R4/Patient/chosen-by-super-admin', {
        body: { resourceType: 'Patient', id: 'chosen-by-super-admin' },
      });
      expect(chosen.status).toBe(201);
    });
  });

  describe('issue 20: reads by id that arrive together share a statement', () => {
    it("answers each caller only what it may read: another project's admin, a patient and the owner at once", async () => {
      const owner = admin();
      const attacker = as(other.tokens.access_token);
      const patient = await member({ resource: [{ resourceType: '*' }] }, `Patient/${ids.alice}`, 'patient/*.rs');
      // Who reads what, and the status each must get: the attacker's reads of the owner's project
      // and the patient's read of another patient are mixed with reads that succeed.
      const reads: [ReturnType<typeof as>, string, number][] = [
        [owner, `Patient/${ids.alice}`, 200],
        [attacker, `Patient/${ids.alice}`, 404],
        [patient, `Observation/${ids.aliceVital}`, 200],
        [owner, `Observation/${ids.bobVital}`, 200],
        [patient, `Observation/${ids.bobVital}`, 403],
        [attacker, `Patient/${ids.foreignPatient}`, 200],
        [attacker, `Observation/${ids.aliceLab}`, 404],
        [owner, `Encounter/${ids.encounter}`, 200],
        [patient, `Patient/${ids.bob}`, 403],
        [attacker, `Encounter/${ids.encounter}`, 404],
      ];
      // Each caller's first read resolves and caches it; the rounds after it take the batched path.
      for (let round = 0; round < 4; round++) {
        const all = Array.from({ length: 3 }, () => reads).flat();
        const answers = await Promise.all(all.map(([caller, path]) => caller.get(path)));
        answers.forEach((answer, i) => {
          const [, path, status] = all[i];
          expect([path, answer.status]).toEqual([path, status]);
          // Never another read's row.
          if (status === 200) expect(`${answer.body.resourceType}/${answer.body.id}`).toBe(path);
        });
      }
    });
  });
});
