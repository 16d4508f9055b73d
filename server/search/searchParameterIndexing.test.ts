import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { clinicWithPatientRegistration, registerPatient } from '../../tests/integration/patientAccounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * The QA walk over REST, as a project admin: a second SearchParameter of a code the project has is
 * refused, and a new one finds the project's resources written before it once its indexing (in the
 * background, reported by `SearchParameter/{id}/$index-status`) is done; another project's are not
 * indexed. The repository-level replay (duplicates saved before the check) is in
 * searchParameterReplay.test-support.ts.
 */
describe('SearchParameters a project admin saves', () => {
  let clinic: Awaited<ReturnType<typeof registerProjectOwner>>;
  let other: Awaited<ReturnType<typeof registerProjectOwner>>;
  const run = randomUUID().slice(0, 6);
  const token = () => clinic.tokens.access_token;
  const ids = (answer: { body: any }) => ((answer.body.entry ?? []) as any[]).map((e) => e.resource.id).sort();
  const post = async (accessToken: string, body: unknown) => {
    const answer = await http<any>('POST', `fhir/R4/${(body as { resourceType: string }).resourceType}`, {
      token: accessToken,
      body,
    });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 400)).toBe(201);
    return answer.body.id as string;
  };
  const observation = (category: string) => ({
    resourceType: 'Observation',
    status: 'final',
    code: { text: `lab ${run}` },
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: category }] }],
  });
  const statusOf = async (accessToken: string, id: string) => {
    const answer = await http<any>('GET', `fhir/R4/SearchParameter/${id}/$index-status`, { token: accessToken });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const parameter = (name: string) => (answer.body.parameter as any[]).find((p) => p.name === name);
    return {
      status: parameter('status')?.valueCode as string,
      count: parameter('count')?.valueInteger as number | undefined,
      location: answer.headers.get('content-location'),
    };
  };

  beforeAll(async () => {
    clinic = await registerProjectOwner('Colour Clinic');
    other = await registerProjectOwner('Other Clinic');
  });

  it('refuses a second SearchParameter of a code and base the project has, naming the first', async () => {
    const favouriteColour = (url: string) => ({
      resourceType: 'SearchParameter',
      url,
      name: 'FavouriteColour',
      status: 'active',
      description: 'Favourite colour',
      code: 'favourite-colour',
      base: ['Patient'],
      type: 'token',
      expression: "Patient.extension.where(url = 'https://clinic.example/favourite-colour').value",
    });
    const first = await post(token(), favouriteColour('https://clinic.example/SearchParameter/favourite-colour'));
    const teal = await post(token(), {
      resourceType: 'Patient',
      extension: [{ url: 'https://clinic.example/favourite-colour', valueCode: 'teal' }],
    });
    const second = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token: token(),
      body: favouriteColour('https://clinic.example/SearchParameter/favourite-colour-2'),
    });
    expect(second.status).toBe(400);
    expect(issueText(second.body)).toContain(
      `The search parameter "favourite-colour" of Patient is already defined in this project by SearchParameter/${first}`,
    );
    expect(issueExpressions(second.body)).toEqual(['SearchParameter.code']);
    // Another project may have its own.
    await post(other.tokens.access_token, favouriteColour('https://other.example/SearchParameter/favourite-colour'));
    const found = await http<any>('GET', 'fhir/R4/Patient?favourite-colour=teal', { token: token() });
    expect(found.status).toBe(200);
    expect(ids(found)).toEqual([teal]);
  });

  it("indexes the project's resources written before a new SearchParameter, and no other project's", async () => {
    const before: string[] = [];
    for (let i = 0; i < 4; i++) before.push(await post(token(), observation('laboratory')));
    await post(token(), observation('vital-signs'));
    const elsewhere = await post(other.tokens.access_token, observation('laboratory'));

    const parameter = await post(token(), {
      resourceType: 'SearchParameter',
      url: `https://clinic.example/SearchParameter/qa-category-${run}`,
      name: 'QaCategory',
      status: 'active',
      description: 'Category code',
      code: 'qa-category',
      base: ['Observation'],
      type: 'token',
      expression: 'Observation.category.coding.code',
    });
    expect(['queued', 'indexing', 'completed']).toContain((await statusOf(token(), parameter)).status);
    await vi.waitFor(async () => expect((await statusOf(token(), parameter)).status).toBe('completed'), {
      timeout: 30_000,
      interval: 100,
    });
    const done = await statusOf(token(), parameter);
    // The project's five Observations, none of the other project's.
    expect(done.count).toBe(5);
    expect(done.location).toMatch(/fhir\/R4\/AsyncJob\/[0-9a-f-]+$/);
    const job = await http<any>('GET', done.location as string, { token: token() });
    expect(job.body).toMatchObject({ resourceType: 'AsyncJob', status: 'completed' });

    const found = await http<any>('GET', 'fhir/R4/Observation?qa-category=laboratory&_count=100', { token: token() });
    expect(found.status).toBe(200);
    expect(ids(found)).toEqual([...before].sort());
    // The other project does not know the code, and may not ask about another project's parameter.
    const unknown = await http<any>('GET', 'fhir/R4/Observation?qa-category=laboratory', {
      token: other.tokens.access_token,
    });
    expect(unknown.status).toBe(400);
    expect(issueText(unknown.body)).toContain('Unknown search parameter "qa-category"');
    expect(
      (await http('GET', `fhir/R4/SearchParameter/${parameter}/$index-status`, { token: other.tokens.access_token }))
        .status,
    ).toBe(404);
    // Once the other project defines it too, its own indexing finds its own resource only.
    const its = await post(other.tokens.access_token, {
      resourceType: 'SearchParameter',
      url: `https://other.example/SearchParameter/qa-category-${run}`,
      name: 'QaCategory',
      status: 'active',
      description: 'Category code',
      code: 'qa-category',
      base: ['Observation'],
      type: 'token',
      expression: 'Observation.category.coding.code',
    });
    await vi.waitFor(async () => expect((await statusOf(other.tokens.access_token, its)).status).toBe('completed'), {
      timeout: 30_000,
      interval: 100,
    });
    expect((await statusOf(other.tokens.access_token, its)).count).toBe(1);
    const theirs = await http<any>('GET', 'fhir/R4/Observation?qa-category=laboratory', {
      token: other.tokens.access_token,
    });
    expect(ids(theirs)).toEqual([elsewhere]);
  });
  it("tells a patient of the project nothing about its SearchParameters' indexing, and an anonymous caller less", async () => {
    const portal = await clinicWithPatientRegistration('Index Status Clinic');
    const parameter = await post(portal.tokens.access_token, {
      resourceType: 'SearchParameter',
      url: `https://portal.example/SearchParameter/qa-nick-${run}`,
      name: 'QaNick',
      status: 'active',
      description: 'Nickname',
      code: 'qa-nick',
      base: ['Patient'],
      type: 'string',
      expression: "Patient.name.where(use = 'nickname').given",
    });
    const patient = await registerPatient(portal.projectId);
    // Her policy is her own compartment: the clinic's SearchParameter is not hers to read.
    const asked = await http<any>('GET', `fhir/R4/SearchParameter/${parameter}/$index-status`, {
      token: patient.token,
    });
    expect([403, 404]).toContain(asked.status);
    expect(JSON.stringify(asked.body)).not.toContain('AsyncJob');
    expect((await http('GET', `fhir/R4/SearchParameter/${parameter}/$index-status`, { token: null })).status).toBe(401);
  });
});
