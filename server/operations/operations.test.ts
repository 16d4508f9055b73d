import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { inviteMember } from '../admin/projectMembers.test-support';
import { maxProfileLookups } from './expandProfile';
import { maxGraphCalls } from './graphOperation';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
type Answer = { status: number; body: any; headers: Headers };

describe('FHIR operations', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let other: Awaited<ReturnType<typeof registerProjectOwner>>;
  let token: string;
  const ids: Record<string, string> = {};
  const get = (path: string, as = token): Promise<Answer> => http('GET', `fhir/R4/${path}`, { token: as });
  const post = (path: string, body: unknown, as = token): Promise<Answer> =>
    http('POST', `fhir/R4/${path}`, { token: as, body });
  const create = async (body: Record<string, unknown>, as = token): Promise<string> => {
    const answer = await post(body.resourceType as string, body, as);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as string;
  };
  const keys = (bundle: any): string[] =>
    (bundle.entry ?? []).map((entry: any) => `${entry.resource.resourceType}/${entry.resource.id}`);

  beforeAll(async () => {
    owner = await registerProjectOwner('Operations Clinic');
    other = await registerProjectOwner('Operations Elsewhere');
    token = owner.tokens.access_token;
    ids.doctor = await create({ resourceType: 'Practitioner', name: [{ family: 'Doctor' }] });
    ids.nurse = await create({ resourceType: 'Practitioner', name: [{ family: 'Nurse' }] });
    ids.p1 = await create({
      resourceType: 'Patient',
      name: [{ family: 'Everything' }],
      generalPractitioner: [{ reference: `Practitioner/${ids.doctor}` }],
    });
    ids.p2 = await create({ resourceType: 'Patient', name: [{ family: 'Bystander' }] });
    const observation = (patient: string, status: string) => ({
      resourceType: 'Observation',
      status,
      code: { text: 'Pulse' },
      subject: { reference: `Patient/${patient}` },
      performer: [{ reference: `Practitioner/${ids.nurse}` }],
    });
    ids.final = await create(observation(ids.p1, 'final'));
    ids.prelim = await create(observation(ids.p1, 'preliminary'));
    ids.otherPatientObs = await create(observation(ids.p2, 'final'));
    ids.condition = await create({
      resourceType: 'Condition',
      subject: { reference: `Patient/${ids.p1}` },
      code: { text: 'Asthma' },
    });
  });

  describe('Patient/$everything', () => {
    it('answers the patient first, then every resource of its compartment, and nothing of other patients', async () => {
      const answer = await get(`Patient/${ids.p1}/$everything`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.resourceType).toBe('Bundle');
      expect(answer.body.type).toBe('searchset');
      const found = keys(answer.body);
      expect(found[0]).toBe(`Patient/${ids.p1}`);
      expect(found.slice(1).sort()).toEqual(
        [`Condition/${ids.condition}`, `Observation/${ids.final}`, `Observation/${ids.prelim}`].sort(),
      );
      expect(found).not.toContain(`Observation/${ids.otherPatientObs}`);
    });

    it('pages with _count and a next link that reaches every entry once', async () => {
      const first = await get(`Patient/${ids.p1}/$everything?_count=2`);
      expect(first.body.entry).toHaveLength(2);
      const next = first.body.link.find((link: any) => link.relation === 'next')?.url as string;
      expect(next).toContain('_offset=2');
      const second: Answer = await http('GET', next, { token });
      expect(second.body.link.some((link: any) => link.relation === 'next')).toBe(false);
      const all = [...keys(first.body), ...keys(second.body)];
      expect(new Set(all).size).toBe(4);
    });

    it('filters by _type and _since (the patient always stays)', async () => {
      const typed = await get(`Patient/${ids.p1}/$everything?_type=Observation`);
      expect(keys(typed.body).sort()).toEqual(
        [`Patient/${ids.p1}`, `Observation/${ids.final}`, `Observation/${ids.prelim}`].sort(),
      );
      const future = await get(`Patient/${ids.p1}/$everything?_since=2999-01-01T00:00:00Z`);
      expect(keys(future.body)).toEqual([`Patient/${ids.p1}`]);
    });

    it('applies the caller access policy to every type', async () => {
      const member = await inviteMember(token, owner.projectId, {
        policy: {
          resource: [
            { resourceType: 'Patient' },
            { resourceType: 'Observation', criteria: 'Observation?status=final' },
          ],
        },
      });
      const answer = await get(`Patient/${ids.p1}/$everything`, member.token);
      expect(answer.status).toBe(200);
      expect(keys(answer.body).sort()).toEqual([`Observation/${ids.final}`, `Patient/${ids.p1}`].sort());
    });

    it('refuses bad parameters and answers 404 to other projects', async () => {
      const badCount = await get(`Patient/${ids.p1}/$everything?_count=abc`);
      expect(badCount.status).toBe(400);
      expect(issueExpressions(badCount.body)).toEqual(['_count']);
      const badType = await get(`Patient/${ids.p1}/$everything?_type=Nonsense`);
      expect(badType.status).toBe(400);
      expect(issueText(badType.body)).toContain('Nonsense');
      const badSince = await get(`Patient/${ids.p1}/$everything?_since=yesterday`);
      expect(badSince.status).toBe(400);
      expect((await get(`Patient/${ids.p1}/$everything`, other.tokens.access_token)).status).toBe(404);
      expect((await get('Patient/does-not-exist/$everything')).status).toBe(404);
    });
  });

  describe('$validate', () => {
    it('answers All OK for a valid resource and stores nothing', async () => {
      const answer = await post('Patient/$validate', {
        resourceType: 'Patient',
        name: [{ family: 'NeverStoredValidate' }],
      });
      expect(answer.status).toBe(200);
      expect(answer.body.resourceType).toBe('OperationOutcome');
      expect(answer.body.issue[0]).toMatchObject({ severity: 'information', details: { text: 'All OK' } });
      const search = await get('Patient?name=NeverStoredValidate&_total=accurate');
      expect(search.body.total).toBe(0);
    });

    it('reports each problem with its expression path, also inside a Parameters body', async () => {
      const direct = await post('Patient/$validate', { resourceType: 'Patient', birthDate: 'yesterday', gender: 'x' });
      expect(direct.status).toBe(200);
      expect(direct.body.issue.every((issue: any) => issue.severity === 'error')).toBe(true);
      expect(issueExpressions(direct.body)).toEqual(expect.arrayContaining(['Patient.birthDate', 'Patient.gender']));
      const wrapped = await post('Observation/$validate', {
        resourceType: 'Parameters',
        parameter: [{ name: 'resource', resource: { resourceType: 'Observation', code: { text: 'x' } } }],
      });
      expect(wrapped.status).toBe(200);
      expect(issueExpressions(wrapped.body)).toContain('Observation.status');
    });

    it('checks meta.profile against the profiles the server holds', async () => {
      const unknown = await post('Patient/$validate', {
        resourceType: 'Patient',
        meta: { profile: ['http://example.org/StructureDefinition/nope'] },
      });
      expect(unknown.body.issue[0].severity).toBe('error');
      expect(issueExpressions(unknown.body)).toEqual(['Patient.meta.profile[0]']);
      const usCore = await post('Patient/$validate', {
        resourceType: 'Patient',
        meta: { profile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'] },
        identifier: [{ system: 'urn:mrn', value: '1' }],
        name: [{ family: 'Profiled' }],
        gender: 'female',
      });
      expect(usCore.body.issue.map((issue: any) => issue.details.text)).toEqual(['All OK']);
      // The profile's own rules are evaluated (schema engine): US Core requires an identifier.
      const incomplete = await post('Patient/$validate', {
        resourceType: 'Patient',
        meta: { profile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'] },
        name: [{ family: 'Profiled' }],
        gender: 'female',
      });
      expect(issueExpressions(incomplete.body)).toEqual(['Patient.identifier']);
      const wrongType = await post('Observation/$validate', {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'x' },
        meta: { profile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'] },
      });
      expect(issueText(wrongType.body)).toContain('is for Patient');
    });

    it('validates against the profile parameter (query or Parameters), as if it were in meta.profile', async () => {
      const usCore = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';
      const bare = { resourceType: 'Patient', name: [{ family: 'Profiled' }] };
      // An empty Patient is a valid Patient, but not a US Core one (identifier and gender are required).
      const byQuery = await post(`Patient/$validate?profile=${encodeURIComponent(usCore)}`, bare);
      expect(byQuery.status).toBe(200);
      expect(issueExpressions(byQuery.body)).toEqual(expect.arrayContaining(['Patient.identifier', 'Patient.gender']));
      const byParameters = await post('Patient/$validate', {
        resourceType: 'Parameters',
        parameter: [
          { name: 'resource', resource: bare },
          { name: 'profile', valueCanonical: usCore },
        ],
      });
      expect(issueExpressions(byParameters.body)).toEqual(issueExpressions(byQuery.body));
      const conforming = await post(`Patient/$validate?profile=${encodeURIComponent(usCore)}`, {
        ...bare,
        identifier: [{ system: 'urn:mrn', value: '1' }],
        gender: 'female',
      });
      expect(conforming.body.issue.map((issue: any) => issue.details.text)).toEqual(['All OK']);
      // Named in meta.profile as well: checked once, not twice.
      const both = await post(`Patient/$validate?profile=${encodeURIComponent(usCore)}`, {
        ...bare,
        meta: { profile: [usCore] },
      });
      expect(issueExpressions(both.body).filter((path: string) => path === 'Patient.identifier')).toHaveLength(1);
      const unknown = await post('Patient/$validate?profile=http://example.org/StructureDefinition/nope', bare);
      expect(unknown.body.issue[0]).toMatchObject({ severity: 'error', code: 'not-found' });
      expect(issueText(unknown.body)).toContain('(the profile parameter) is not known');
      const wrongType = await post(`Observation/$validate?profile=${encodeURIComponent(usCore)}`, {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'x' },
      });
      expect(issueText(wrongType.body)).toContain('is for Patient, not Observation');
      // By id: the stored record against a profile it does not claim.
      const stored = await post(
        `Patient/${ids.p1}/$validate?profile=http://example.org/StructureDefinition/nope`,
        undefined,
      );
      expect(issueText(stored.body)).toContain('is not known');
      const empty = await post('Patient/$validate', {
        resourceType: 'Parameters',
        parameter: [
          { name: 'resource', resource: bare },
          { name: 'profile', valueString: ' ' },
        ],
      });
      expect(empty.status).toBe(400);
    });

    it('validates a stored resource by id, and an update body against its id', async () => {
      const stored = await post(`Patient/${ids.p1}/$validate`, undefined);
      expect(stored.status).toBe(200);
      expect(stored.body.issue[0].details.text).toBe('All OK');
      const mismatch = await post(`Patient/${ids.p1}/$validate`, { resourceType: 'Patient', id: 'another' });
      expect(issueExpressions(mismatch.body)).toEqual(['Patient.id']);
    });

    it('refuses a body that is not the URL type, or no resource at all', async () => {
      const wrong = await post('Patient/$validate', { resourceType: 'Observation', status: 'final' });
      expect(wrong.status).toBe(400);
      expect(issueText(wrong.body)).toContain('does not match the URL');
      const empty = await post('Patient/$validate', { resourceType: 'Parameters', parameter: [] });
      expect(empty.status).toBe(400);
      expect((await post('Nonsense/$validate', { resourceType: 'Nonsense' })).status).toBe(404);
    });
  });

  describe('StructureDefinition/$expand-profile', () => {
    const usCorePatient = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';

    it('answers the profile first and the profiles it depends on, each once', async () => {
      const answer = await get(`StructureDefinition/$expand-profile?url=${encodeURIComponent(usCorePatient)}`);
      expect(answer.status).toBe(200);
      const urls = answer.body.entry.map((entry: any) => entry.resource.url as string);
      expect(urls[0]).toBe(usCorePatient);
      expect(urls).toEqual(
        expect.arrayContaining([
          'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race',
          'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity',
        ]),
      );
      expect(new Set(urls).size).toBe(urls.length);
      expect(urls.some((url: string) => url.startsWith('http://hl7.org/fhir/StructureDefinition/'))).toBe(false);
    });

    it('follows a derived profile to its base profile and its datatype profiles; url in a Parameters body', async () => {
      const clinicBp = 'https://hearth.example/StructureDefinition/clinic-blood-pressure';
      await create({
        resourceType: 'StructureDefinition',
        url: clinicBp,
        name: 'ClinicBloodPressure',
        status: 'active',
        kind: 'resource',
        abstract: false,
        type: 'Observation',
        derivation: 'constraint',
        baseDefinition: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure',
        differential: { element: [{ id: 'Observation', path: 'Observation' }] },
      });
      const answer = await post('StructureDefinition/$expand-profile', {
        resourceType: 'Parameters',
        parameter: [{ name: 'url', valueUri: clinicBp }],
      });
      expect(answer.status).toBe(200);
      const urls = answer.body.entry.map((entry: any) => entry.resource.url as string);
      expect(urls[0]).toBe(clinicBp);
      expect(urls).toEqual(
        expect.arrayContaining([
          'http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure',
          // A core constrained datatype named by an element's type.profile.
          'http://hl7.org/fhir/StructureDefinition/SimpleQuantity',
        ]),
      );
      expect(urls).not.toContain('http://hl7.org/fhir/StructureDefinition/Observation');
    });

    it('refuses a profile that depends on more definitions than the lookup limit', async () => {
      // The attack: a stored profile naming thousands of profiles the server does not hold made a
      // search for each on every request for it.
      const url = 'https://hearth.example/StructureDefinition/many-dependencies';
      const profiles = Array.from(
        { length: maxProfileLookups + 1 },
        (_, i) => `https://hearth.example/StructureDefinition/missing-${i}`,
      );
      await create({
        resourceType: 'StructureDefinition',
        url,
        name: 'ManyDependencies',
        status: 'active',
        kind: 'resource',
        abstract: false,
        type: 'Observation',
        derivation: 'constraint',
        baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Observation',
        snapshot: {
          element: [
            { id: 'Observation', path: 'Observation', min: 0, max: '*' },
            {
              id: 'Observation.extension',
              path: 'Observation.extension',
              min: 0,
              max: '*',
              type: [{ code: 'Extension', profile: profiles }],
            },
          ],
        },
      });
      const answer = await get(`StructureDefinition/$expand-profile?url=${encodeURIComponent(url)}`);
      expect(answer.status).toBe(400);
      expect(issueText(answer.body)).toBe(
        `StructureDefinition ${url} depends on more than ${maxProfileLookups} definitions`,
      );
    });

    it('answers 400 without url and 404 for an unknown profile', async () => {
      const missing = await get('StructureDefinition/$expand-profile');
      expect(missing.status).toBe(400);
      expect(issueExpressions(missing.body)).toEqual(['url']);
      const unknown = await get('StructureDefinition/$expand-profile?url=http://example.org/none');
      expect(unknown.status).toBe(404);
      expect(issueText(unknown.body)).toContain('http://example.org/none');
    });
  });

  describe('$graph', () => {
    const graphUrl = 'https://hearth.example/GraphDefinition/patient-care';

    beforeAll(async () => {
      ids.graph = await create({
        resourceType: 'GraphDefinition',
        url: graphUrl,
        name: 'patient-care',
        status: 'active',
        start: 'Patient',
        link: [
          { path: 'Patient.generalPractitioner', target: [{ type: 'Practitioner' }] },
          {
            target: [
              {
                type: 'Observation',
                params: 'subject={ref}',
                link: [{ path: 'Observation.performer', target: [{ type: 'Practitioner' }] }],
              },
            ],
          },
        ],
      });
    });

    it('follows paths, searches and nested links; the graph is found by id, name or url', async () => {
      const expected = [
        `Patient/${ids.p1}`,
        `Practitioner/${ids.doctor}`,
        `Observation/${ids.final}`,
        `Observation/${ids.prelim}`,
        `Practitioner/${ids.nurse}`,
      ].sort();
      for (const graph of [ids.graph, 'patient-care', graphUrl]) {
        const answer = await get(`Patient/${ids.p1}/$graph?graph=${encodeURIComponent(graph)}`);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body.resourceType).toBe('Bundle');
        expect(keys(answer.body)[0]).toBe(`Patient/${ids.p1}`);
        expect(keys(answer.body).sort()).toEqual(expected);
      }
    });

    it('reads every linked resource under the caller access policy', async () => {
      const member = await inviteMember(token, owner.projectId, {
        policy: {
          resource: [
            { resourceType: 'Patient' },
            { resourceType: 'GraphDefinition', readonly: true },
            { resourceType: 'Observation', criteria: 'Observation?status=final' },
          ],
        },
      });
      const answer = await get(`Patient/${ids.p1}/$graph?graph=patient-care`, member.token);
      expect(answer.status).toBe(200);
      // No Practitioner access: neither the GP nor the performer; only the final Observation.
      expect(keys(answer.body).sort()).toEqual([`Observation/${ids.final}`, `Patient/${ids.p1}`].sort());
    });

    it('refuses a GraphDefinition that needs more reads and searches than the limit', async () => {
      // The attack: links are data, each a search for each resource it starts from. Ten thousand
      // links on the start resource made ten thousand searches in one request's transaction.
      await create({
        resourceType: 'GraphDefinition',
        name: 'fan-out',
        status: 'active',
        start: 'Patient',
        link: Array.from({ length: maxGraphCalls + 1 }, () => ({
          target: [{ type: 'Observation', params: 'subject={ref}' }],
        })),
      });
      const answer = await get(`Patient/${ids.p1}/$graph?graph=fan-out`);
      expect(answer.status).toBe(400);
      expect(issueText(answer.body)).toBe(
        `GraphDefinition fan-out needs more than ${maxGraphCalls} reads and searches`,
      );
      // Nested: each of the patient's two Observations starts more than half the limit's searches.
      const half = Math.ceil(maxGraphCalls / 2) + 1;
      await create({
        resourceType: 'GraphDefinition',
        name: 'nested-fan-out',
        status: 'active',
        start: 'Patient',
        link: [
          {
            target: [
              {
                type: 'Observation',
                params: 'subject={ref}',
                link: Array.from({ length: half }, () => ({
                  target: [{ type: 'Condition', params: 'subject={ref}' }],
                })),
              },
            ],
          },
        ],
      });
      const nested = await get(`Patient/${ids.p1}/$graph?graph=nested-fan-out`);
      expect(nested.status).toBe(400);
      expect(issueText(nested.body)).toContain('nested-fan-out needs more than');
    });

    it('refuses a link path of unbounded cost before reading anything', async () => {
      // Each path runs on every resource its link starts from; select() doubling the collection
      // 20 times made a million values from one Patient (each further step doubles the time).
      const doubling = `Patient.id${".select(($this & 'a') | ($this & 'b'))".repeat(20)}`;
      await create({
        resourceType: 'GraphDefinition',
        name: 'costly-path',
        status: 'active',
        start: 'Patient',
        link: [{ path: doubling, target: [{ type: 'Practitioner' }] }],
      });
      const answer = await get(`Patient/${ids.p1}/$graph?graph=costly-path`);
      expect(answer.status).toBe(400);
      expect(issueText(answer.body)).toContain('is not allowed');
    });

    it('refuses a missing or unknown graph and a graph for another start type', async () => {
      expect((await get(`Patient/${ids.p1}/$graph`)).status).toBe(400);
      const unknown = await get(`Patient/${ids.p1}/$graph?graph=no-such-graph`);
      expect(unknown.status).toBe(404);
      expect(issueText(unknown.body)).toContain('no-such-graph');
      const wrongStart = await get(`Practitioner/${ids.doctor}/$graph?graph=patient-care`);
      expect(wrongStart.status).toBe(400);
      expect(issueText(wrongStart.body)).toContain('starts at Patient');
      expect((await get(`Patient/${ids.p1}/$graph?graph=patient-care`, other.tokens.access_token)).status).toBe(404);
    });
  });

  it('Agent/$push answers 501: this server has no agents', async () => {
    for (const path of ['Agent/some-agent/$push', 'Agent/$push']) {
      const answer = await post(path, {
        destination: 'Device/1',
        body: 'MSH|...',
        contentType: 'x-application/hl7-v2+er7',
      });
      expect(answer.status).toBe(501);
      expect(answer.body.resourceType).toBe('OperationOutcome');
      expect(issueText(answer.body)).toContain('no agents');
    }
  });

  it('leaves the REST routes of the same types working', async () => {
    expect((await get(`Patient/${ids.p1}`)).body.id).toBe(ids.p1);
    expect((await get(`GraphDefinition/${ids.graph}`)).body.id).toBe(ids.graph);
    const group = await create({ resourceType: 'Group', type: 'person', actual: true });
    expect((await get(`Group/${group}`)).status).toBe(200);
    expect((await get('Agent/no-such-agent')).status).toBe(404);
    expect((await get('StructureDefinition?url=http://hl7.org/fhir/StructureDefinition/Patient')).status).toBe(200);
    expect((await get(`Patient/${ids.p1}/_history`)).status).toBe(200);
  });

  it('operations need a signed-in caller', async () => {
    expect((await http('GET', `fhir/R4/Patient/${ids.p1}/$everything`, { token: null })).status).toBe(401);
    expect(
      (await http('POST', 'fhir/R4/Patient/$validate', { token: null, body: { resourceType: 'Patient' } })).status,
    ).toBe(401);
  });
});
