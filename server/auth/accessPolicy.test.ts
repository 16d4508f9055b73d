import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, registerUser, uniqueEmail } from '../../tests/integration/accounts';
import { pkcePair, signIn } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
type Answer = { status: number; body: any };

/** The access-policy matrix: for each rule a permitted and a refused case, as a member under that policy. */
describe('access policies and project isolation', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let other: Awaited<ReturnType<typeof registerProjectOwner>>;
  const ids: Record<string, string> = {};
  const as = (token: string) => ({
    get: (path: string): Promise<Answer> => http('GET', `fhir/R4/${path}`, { token }),
    post: (path: string, body: unknown): Promise<Answer> => http('POST', `fhir/R4/${path}`, { token, body }),
    put: (path: string, body: unknown): Promise<Answer> => http('PUT', `fhir/R4/${path}`, { token, body }),
    del: (path: string): Promise<Answer> => http('DELETE', `fhir/R4/${path}`, { token }),
    graphql: (query: string): Promise<Answer> => http('POST', 'fhir/R4/$graphql', { token, body: { query } }),
  });

  /** A user of the owner's project with `policy` (an AccessPolicy body, or undefined for none) and a profile. */
  async function member(policy: Record<string, unknown> | undefined, profile?: string): Promise<ReturnType<typeof as>> {
    const admin = as(owner.tokens.access_token);
    const email = uniqueEmail('member');
    await registerUser(email, 'member password 1', pkcePair().challenge);
    const user = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`);
    let profileRef = profile;
    if (!profileRef) {
      const practitioner = await admin.post('Practitioner', {
        resourceType: 'Practitioner',
        name: [{ family: 'Member' }],
      });
      profileRef = `Practitioner/${practitioner.body.id}`;
    }
    const accessPolicy = policy
      ? await admin.post('AccessPolicy', { resourceType: 'AccessPolicy', name: 'test', ...policy })
      : undefined;
    // Only super admins attach a User through ProjectMembership (project admins invite).
    const membership = await as(inject('adminToken')).post('ProjectMembership', {
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${owner.projectId}` },
      user: { reference: `User/${user.body.entry[0].resource.id}` },
      profile: { reference: profileRef },
      ...(accessPolicy ? { accessPolicy: { reference: `AccessPolicy/${accessPolicy.body.id}` } } : {}),
    });
    expect(membership.status).toBe(201);
    return as((await signIn(baseUrl(), email, 'member password 1')).access_token);
  }

  beforeAll(async () => {
    owner = await registerProjectOwner('Policy Clinic');
    other = await registerProjectOwner('Other Clinic');
    const admin = as(owner.tokens.access_token);
    const patient = async (family: string, extra: Record<string, unknown> = {}) =>
      (await admin.post('Patient', { resourceType: 'Patient', name: [{ family }], birthDate: '1970-01-01', ...extra }))
        .body.id as string;
    ids.alice = await patient('Alice', {
      identifier: [{ system: 'urn:mrn', value: 'A1' }],
      telecom: [{ system: 'phone', value: '555-0100' }],
    });
    ids.bob = await patient('Bob');
    const observation = async (subject: string, status: string) =>
      (
        await admin.post('Observation', {
          resourceType: 'Observation',
          status,
          code: { text: 'Pulse' },
          subject: { reference: `Patient/${subject}` },
        })
      ).body.id as string;
    ids.aliceFinal = await observation(ids.alice, 'final');
    ids.alicePrelim = await observation(ids.alice, 'preliminary');
    ids.bobFinal = await observation(ids.bob, 'final');
    ids.foreignPatient = (
      await as(other.tokens.access_token).post('Patient', { resourceType: 'Patient', name: [{ family: 'Foreign' }] })
    ).body.id;
    ids.foreignObservation = (
      await as(other.tokens.access_token).post('Observation', {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'Pulse' },
        subject: { reference: `Patient/${ids.foreignPatient}` },
      })
    ).body.id;
  }, 120_000);

  it('restricts by resource type (403 naming the type and operation)', async () => {
    const user = await member({ resource: [{ resourceType: 'Patient' }] });
    expect((await user.get(`Patient/${ids.alice}`)).status).toBe(200);
    const read = await user.get(`Observation/${ids.aliceFinal}`);
    expect(read.status).toBe(403);
    expect(issueText(read.body)).toBe('Forbidden: your access policy does not allow read of Observation');
    const search = await user.get('Observation');
    expect(search.status).toBe(403);
    expect(issueText(search.body)).toContain('search of Observation');
    // Includes of types the policy does not grant are left out silently.
    const included = await user.get(`Patient?_id=${ids.alice}&_revinclude=Observation:subject`);
    expect(included.body.entry.map((e: any) => e.resource.resourceType)).toEqual(['Patient']);
    // Shared definitions stay readable (forms and filters are built from them), never writable.
    const definitions = await user.get('StructureDefinition?url=http://hl7.org/fhir/StructureDefinition/Patient');
    expect(definitions.status).toBe(200);
    expect(definitions.body.entry).toHaveLength(1);
    expect((await user.get('SearchParameter?base=Patient&_count=1')).status).toBe(200);
    const write = await user.post('ValueSet', { resourceType: 'ValueSet', status: 'draft' });
    expect(write.status).toBe(403);
    expect(issueText(write.body)).toBe('Forbidden: your access policy does not allow create of ValueSet');
  });

  it('only project admins write the project administration, even members without a policy', async () => {
    const user = await member(undefined);
    expect((await user.post('Patient', { resourceType: 'Patient', name: [{ family: 'Open' }] })).status).toBe(201);
    const policy = await user.post('AccessPolicy', { resourceType: 'AccessPolicy', name: 'mine' });
    expect(policy.status).toBe(403);
    expect(issueText(policy.body)).toBe('Forbidden: only project admins may create AccessPolicy resources');
    const memberships = await user.get('ProjectMembership?_count=100');
    expect(memberships.status).toBe(200);
    const own = memberships.body.entry[0].resource;
    const promoted = await user.put(`ProjectMembership/${own.id}`, { ...own, admin: true });
    expect(promoted.status).toBe(403);
    expect(issueText(promoted.body)).toBe('Forbidden: only project admins may update ProjectMembership resources');
  });

  it('readonly allows read, search and history, and refuses writes', async () => {
    const user = await member({ resource: [{ resourceType: 'Patient', readonly: true }] });
    const current = await user.get(`Patient/${ids.bob}`);
    expect(current.status).toBe(200);
    expect((await user.get('Patient?_count=5')).status).toBe(200);
    expect((await user.get(`Patient/${ids.bob}/_history`)).status).toBe(200);
    const update = await user.put(`Patient/${ids.bob}`, { ...current.body, gender: 'male' });
    expect(update.status).toBe(403);
    expect(issueText(update.body)).toContain('update of Patient');
    expect((await user.post('Patient', { resourceType: 'Patient' })).status).toBe(403);
    expect((await user.del(`Patient/${ids.bob}`)).status).toBe(403);
  });

  it('an interaction list grants those interactions alone (it was ignored: a read-only list could write)', async () => {
    const reader = await member({ resource: [{ resourceType: 'Patient', interaction: ['read', 'search'] }] });
    const current = await reader.get(`Patient/${ids.bob}`);
    expect(current.status).toBe(200);
    expect((await reader.get('Patient?_count=5')).status).toBe(200);
    const update = await reader.put(`Patient/${ids.bob}`, { ...current.body, gender: 'male' });
    expect(update.status).toBe(403);
    expect(issueText(update.body)).toContain('update of Patient');
    expect((await reader.post('Patient', { resourceType: 'Patient' })).status).toBe(403);
    expect((await reader.del(`Patient/${ids.bob}`)).status).toBe(403);
    expect((await reader.get(`Patient/${ids.bob}`)).body.gender).toBe(current.body.gender);

    // Update without create: an existing Observation may change, a new one may not be made, and
    // an entry granting only create does not open reading.
    const updater = await member({
      resource: [
        { resourceType: 'Observation', interaction: ['read', 'update'] },
        { resourceType: 'Patient', interaction: ['create'] },
      ],
    });
    const observation = await updater.get(`Observation/${ids.bobFinal}`);
    expect(observation.status).toBe(200);
    const amended = await updater.put(`Observation/${ids.bobFinal}`, { ...observation.body, status: 'amended' });
    expect(amended.status).toBe(200);
    const body = { resourceType: 'Observation', status: 'final', code: { text: 'Temp' } };
    expect((await updater.post('Observation', body)).status).toBe(403);
    expect((await updater.del(`Observation/${ids.bobFinal}`)).status).toBe(403);
    expect((await updater.get('Observation?_count=1')).status).toBe(403);
    expect((await updater.post('Patient', { resourceType: 'Patient' })).status).toBe(201);
    expect((await updater.get(`Patient/${ids.bob}`)).status).toBe(403);
    await as(owner.tokens.access_token).put(`Observation/${ids.bobFinal}`, { ...amended.body, status: 'final' });
  });

  it('limits to a compartment on read and search', async () => {
    const user = await member({
      resource: [{ resourceType: 'Observation', compartment: { reference: `Patient/${ids.alice}` } }],
    });
    expect((await user.get(`Observation/${ids.aliceFinal}`)).status).toBe(200);
    expect((await user.get(`Observation/${ids.bobFinal}`)).status).toBe(403);
    const search = await user.get('Observation?_count=100');
    const found = search.body.entry.map((e: any) => e.resource.id).sort();
    expect(found).toEqual([ids.aliceFinal, ids.alicePrelim].sort());
  });

  it('applies criteria on read, search and write', async () => {
    const user = await member({ resource: [{ resourceType: 'Observation', criteria: 'Observation?status=final' }] });
    expect((await user.get(`Observation/${ids.aliceFinal}`)).status).toBe(200);
    expect((await user.get(`Observation/${ids.alicePrelim}`)).status).toBe(403);
    const search = await user.get('Observation?_count=100&_total=accurate');
    expect(search.body.entry.every((e: any) => e.resource.status === 'final')).toBe(true);
    expect(search.body.total).toBe(2);
    const body = { resourceType: 'Observation', code: { text: 'Temp' }, subject: { reference: `Patient/${ids.bob}` } };
    expect((await user.post('Observation', { ...body, status: 'final' })).status).toBe(201);
    const refused = await user.post('Observation', { ...body, status: 'preliminary' });
    expect(refused.status).toBe(403);
    expect(issueText(refused.body)).toContain('outside the compartment or criteria');
    const current = await user.get(`Observation/${ids.bobFinal}`);
    expect((await user.put(`Observation/${ids.bobFinal}`, { ...current.body, status: 'amended' })).status).toBe(403);
    // The refused writes changed nothing.
    expect((await user.get(`Observation/${ids.bobFinal}`)).body.status).toBe('final');
  });

  it('removes hidden fields from read, search, history and GraphQL, and keeps them on write', async () => {
    const user = await member({ resource: [{ resourceType: 'Patient', hiddenFields: ['birthDate', 'telecom'] }] });
    const read = await user.get(`Patient/${ids.alice}`);
    expect(read.body.birthDate).toBeUndefined();
    expect(read.body.telecom).toBeUndefined();
    expect(read.body.name[0].family).toBe('Alice');
    const search = await user.get(`Patient?_id=${ids.alice}`);
    expect(search.body.entry[0].resource.birthDate).toBeUndefined();
    const history = await user.get(`Patient/${ids.alice}/_history`);
    expect(history.body.entry.every((e: any) => e.resource.birthDate === undefined)).toBe(true);
    const graph = await user.graphql(`{ Patient(id: "${ids.alice}") { id birthDate name { family } } }`);
    expect(graph.body.data.Patient).toEqual({ id: ids.alice, birthDate: null, name: [{ family: 'Alice' }] });
    expect((await user.put(`Patient/${ids.alice}`, { ...read.body, gender: 'female' })).status).toBe(200);
    const stored = await as(owner.tokens.access_token).get(`Patient/${ids.alice}`);
    expect(stored.body.birthDate).toBe('1970-01-01');
    expect(stored.body.telecom).toEqual([{ system: 'phone', value: '555-0100' }]);
    expect(stored.body.gender).toBe('female');
  });

  it('refuses a write that changes a read-only field, naming it', async () => {
    const user = await member({ resource: [{ resourceType: 'Patient', readonlyFields: ['identifier'] }] });
    const current = await user.get(`Patient/${ids.alice}`);
    const refused = await user.put(`Patient/${ids.alice}`, {
      ...current.body,
      identifier: [{ system: 'urn:mrn', value: 'HACKED' }],
    });
    expect(refused.status).toBe(403);
    expect(issueExpressions(refused.body)).toEqual(['Patient.identifier']);
    expect(issueText(refused.body)).toBe('Field identifier is read-only under your access policy');
    const allowed = await user.put(`Patient/${ids.alice}`, { ...current.body, active: true });
    expect(allowed.status).toBe(200);
    expect(allowed.body.identifier).toEqual([{ system: 'urn:mrn', value: 'A1' }]);
  });

  it('a wildcard entry grants every type but the account and security types', async () => {
    const user = await member({ resource: [{ resourceType: '*' }] });
    expect((await user.get(`Observation/${ids.aliceFinal}`)).status).toBe(200);
    for (const type of ['ProjectMembership', 'User', 'Project', 'UserSecurityRequest', 'PasswordChangeRequest']) {
      expect((await user.get(`${type}?_count=1`)).status, type).toBe(403);
    }
  });

  it('never lets anyone write Login, and only super admins DomainConfiguration', async () => {
    const admin = as(owner.tokens.access_token);
    const login = await admin.post('Login', {
      resourceType: 'Login',
      user: { reference: 'User/x' },
      authMethod: 'password',
      authTime: new Date().toISOString(),
    });
    expect(login.status).toBe(403);
    expect(issueText(login.body)).toContain('Login resources are never writable');
    expect(
      (await admin.post('DomainConfiguration', { resourceType: 'DomainConfiguration', domain: 'clinic.example' }))
        .status,
    ).toBe(403);
    expect((await admin.post('JsonWebKey', { resourceType: 'JsonWebKey', kty: 'RSA' })).status).toBe(403);
    expect(
      (
        await http('POST', 'fhir/R4/Login', {
          body: {
            resourceType: 'Login',
            user: { reference: 'User/x' },
            authMethod: 'password',
            authTime: new Date().toISOString(),
          },
        })
      ).status,
    ).toBe(403);
  });

  it('a signed-in patient sees only their own compartment', async () => {
    const patient = await member(
      { resource: [{ resourceType: '*', compartment: { reference: '%profile' } }] },
      `Patient/${ids.alice}`,
    );
    expect((await patient.get(`Patient/${ids.alice}`)).status).toBe(200);
    expect((await patient.get(`Patient/${ids.bob}`)).status).toBe(403);
    const observations = await patient.get('Observation?_count=100');
    expect(observations.body.entry.map((e: any) => e.resource.subject.reference)).toEqual(
      [`Patient/${ids.alice}`, `Patient/${ids.alice}`].slice(0, observations.body.entry.length),
    );
    expect(observations.body.entry.every((e: any) => e.resource.subject.reference === `Patient/${ids.alice}`)).toBe(
      true,
    );
    // Shared definitions stay readable.
    expect(
      (await patient.get('StructureDefinition?url=http://hl7.org/fhir/StructureDefinition/Patient')).body.entry,
    ).toHaveLength(1);
  });

  it('a patient of a project without a patient policy reads their record and sends messages, and writes nothing else', async () => {
    const patient = await member(undefined, `Patient/${ids.bob}`);
    const own = await patient.get(`Patient/${ids.bob}`);
    expect(own.status).toBe(200);
    const made = await patient.post('Observation', {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Potassium' },
      subject: { reference: `Patient/${ids.bob}` },
      valueQuantity: { value: 9.9, unit: 'mmol/L' },
    });
    expect(made.status).toBe(403);
    expect((await patient.put(`Patient/${ids.bob}`, { ...own.body, gender: 'female' })).status).toBe(403);
    expect((await patient.del(`Observation/${ids.bobFinal}`)).status).toBe(403);
    const me = { reference: `Patient/${ids.bob}` };
    const message = await patient.post('Communication', {
      resourceType: 'Communication',
      status: 'in-progress',
      subject: me,
      sender: me,
      payload: [{ contentString: 'A question about my results' }],
    });
    expect(message.status).toBe(201);
    expect((await patient.del(`Communication/${message.body.id}`)).status).toBe(403);
    expect((await as(owner.tokens.access_token).get(`Patient/${ids.bob}`)).body.gender).toBe(own.body.gender);
  });

  it('that patient marks a message to them read, and cannot rewrite its text or sender while doing it', async () => {
    const patient = await member(undefined, `Patient/${ids.bob}`);
    const clinic = as(owner.tokens.access_token);
    const me = { reference: `Patient/${ids.bob}` };
    const sent = await clinic.post('Communication', {
      resourceType: 'Communication',
      status: 'in-progress',
      subject: me,
      recipient: [me],
      sender: owner.tokens.profile,
      payload: [{ contentString: 'Your potassium is normal' }],
    });
    expect(sent.status).toBe(201);
    const toMe = (await patient.get(`Communication/${sent.body.id}`)).body;
    const readMark = { status: 'completed', received: new Date().toISOString() };
    const rewritten = await patient.put(`Communication/${sent.body.id}`, {
      ...toMe,
      ...readMark,
      payload: [{ contentString: 'Your potassium is dangerously high' }],
    });
    expect(rewritten.status).toBe(403);
    expect(JSON.stringify(rewritten.body)).toContain('Communication.payload');
    const forgedSender = await patient.put(`Communication/${sent.body.id}`, { ...toMe, ...readMark, sender: me });
    expect(forgedSender.status).toBe(403);
    expect((await clinic.get(`Communication/${sent.body.id}`)).body.payload[0].contentString).toBe(
      'Your potassium is normal',
    );
    const marked = await patient.put(`Communication/${sent.body.id}`, { ...toMe, ...readMark });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body.status).toBe('completed');
  });

  it('no cross-project read by id, search, include, chain, GraphQL or history', async () => {
    const stranger = as(other.tokens.access_token);
    expect((await stranger.get(`Patient/${ids.alice}`)).status).toBe(404);
    expect((await stranger.get(`Patient/${ids.alice}/_history`)).status).toBe(404);
    expect((await stranger.get(`Observation/${ids.aliceFinal}/_history/x`)).status).toBe(404);
    const search = await stranger.get('Patient?_count=100');
    expect(search.body.entry.map((e: any) => e.resource.id)).toEqual([ids.foreignPatient]);
    const chain = await stranger.get('Observation?subject:Patient.name=Alice');
    expect(chain.body.entry ?? []).toEqual([]);
    const includes = await stranger.get(
      `Observation?_id=${ids.foreignObservation}&_include=Observation:subject&_revinclude:iterate=Observation:subject`,
    );
    expect(includes.body.entry.map((e: any) => e.resource.id).sort()).toEqual(
      [ids.foreignObservation, ids.foreignPatient].sort(),
    );
    const graph = await stranger.graphql(`{ PatientList(_count: 100) { id } Patient(id: "${ids.alice}") { id } }`);
    expect(graph.body.data.PatientList).toEqual([{ id: ids.foreignPatient }]);
    expect(graph.body.errors[0].message).toBe('Not found');
    const history = await stranger.get('Patient/_history?_count=100');
    expect(history.body.entry.every((e: any) => e.resource.id === ids.foreignPatient)).toBe(true);
    const system = await stranger.get('_history?_count=200');
    expect(system.body.entry.some((e: any) => [ids.alice, ids.bob, ids.aliceFinal].includes(e.resource.id))).toBe(
      false,
    );
    // Writing into another project's resource answers as if it did not exist.
    expect((await stranger.put(`Patient/${ids.bob}`, { resourceType: 'Patient', id: ids.bob })).status).toBe(404);
    expect((await stranger.del(`Patient/${ids.bob}`)).status).toBe(404);
    const batch = await http<any>('POST', 'fhir/R4', {
      token: other.tokens.access_token,
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [{ request: { method: 'GET', url: `Patient/${ids.alice}` } }],
      },
    });
    expect(batch.body.entry[0].response.status).toBe('404');
  });

  it('super admins bypass policies and see every project', async () => {
    expect((await http('GET', `fhir/R4/Patient/${ids.alice}`)).status).toBe(200);
    expect((await http('GET', `fhir/R4/Patient/${ids.foreignPatient}`)).status).toBe(200);
    // …and edits keep the resource in its project.
    const current = await http<any>('GET', `fhir/R4/Patient/${ids.foreignPatient}`);
    const updated = await http<any>('PUT', `fhir/R4/Patient/${ids.foreignPatient}`, {
      body: { ...current.body, gender: 'other' },
    });
    expect(updated.body.meta.project).toBe(other.projectId);
    expect((await as(other.tokens.access_token).get(`Patient/${ids.foreignPatient}`)).body.gender).toBe('other');
  });

  it('$reindex is for super admins only', async () => {
    const refused = await as(owner.tokens.access_token).post('$reindex', {});
    expect(refused.status).toBe(403);
  });
});
