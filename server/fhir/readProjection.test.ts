import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { memberUnderPolicy } from '../../tests/integration/policyMember';

interface Res {
  resourceType: string;
  id: string;
  meta: { versionId: string; lastUpdated: string; tag?: { system?: string; code?: string }[] };
  [key: string]: unknown;
}

const subsetted = (resource: Res) => (resource.meta.tag ?? []).some((tag) => tag.code === 'SUBSETTED');

/** `_summary` and `_elements` on read and vread (FHIR R4 search.html §3.1.1.5.8–9, which apply to reads too). */
describe('_summary and _elements on read and vread', () => {
  let patient: Res;

  beforeAll(async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', {
      body: {
        resourceType: 'Patient',
        text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">Ada Summary</div>' },
        name: [{ family: 'Summary', given: ['Ada'] }],
        gender: 'female',
        // Not a summary element of Patient.
        communication: [{ language: { text: 'English' } }],
      },
    });
    expect(created.status).toBe(201);
    patient = created.body;
  });

  const read = (query: string) => http<Res>('GET', `fhir/R4/Patient/${patient.id}?${query}`);

  it('answers _summary=true with the summary elements only, marked SUBSETTED', async () => {
    const answer = await read('_summary=true');
    expect(answer.status).toBe(200);
    expect(answer.body.name).toEqual(patient.name);
    expect(answer.body.gender).toBe('female');
    expect(answer.body).not.toHaveProperty('communication');
    expect(answer.body).not.toHaveProperty('text');
    expect(answer.body.id).toBe(patient.id);
    expect(subsetted(answer.body)).toBe(true);
    // Still the version it is: the same ETag as the whole read.
    expect(answer.headers.get('etag')).toBe(`W/"${patient.meta.versionId}"`);
  });

  it('answers _summary=text and _summary=data', async () => {
    const text = await read('_summary=text');
    expect(text.body.text).toEqual(patient.text);
    expect(text.body).not.toHaveProperty('name');
    expect(subsetted(text.body)).toBe(true);
    const data = await read('_summary=data');
    expect(data.body).not.toHaveProperty('text');
    expect(data.body.communication).toEqual(patient.communication);
    expect(subsetted(data.body)).toBe(true);
  });

  it('answers _summary=false whole, and refuses _summary=count (searches only) and unknown values', async () => {
    const whole = await read('_summary=false');
    expect(whole.body).toEqual(patient);
    expect(subsetted(whole.body)).toBe(false);
    const count = await read('_summary=count');
    expect(count.status).toBe(400);
    expect(issueExpressions(count.body)).toEqual(['_summary']);
    expect((await read('_summary=bogus')).status).toBe(400);
  });

  it('answers _elements with the named elements only, and is the plain read without either', async () => {
    const answer = await read('_elements=gender,communication');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['communication', 'gender', 'id', 'meta', 'resourceType']);
    expect(subsetted(answer.body)).toBe(true);
    const plain = await read('_pretty=true');
    expect(plain.body).toEqual(patient);
  });

  it('shapes a vread the same way', async () => {
    const url = `fhir/R4/Patient/${patient.id}/_history/${patient.meta.versionId}`;
    const elements = await http<Res>('GET', `${url}?_elements=gender`);
    expect(elements.status).toBe(200);
    expect(Object.keys(elements.body).sort()).toEqual(['gender', 'id', 'meta', 'resourceType']);
    const summary = await http<Res>('GET', `${url}?_summary=true`);
    expect(summary.body).not.toHaveProperty('communication');
    expect(subsetted(summary.body)).toBe(true);
    expect((await http('GET', `${url}?_summary=count`)).status).toBe(400);
  });
});

describe('_summary and _elements keep what an access policy hides hidden', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let member: Awaited<ReturnType<typeof memberUnderPolicy>>;
  let observation: Res;

  beforeAll(async () => {
    owner = await registerProjectOwner('Read projection hidden fields');
    member = await memberUnderPolicy(owner.projectId, owner.tokens.access_token, {
      resource: [{ resourceType: 'Observation', hiddenFields: ['valueQuantity'] }],
    });
    const created = await http<Res>('POST', 'fhir/R4/Observation', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'Glucose' },
        valueQuantity: { value: 180, unit: 'mg/dL' },
      },
    });
    expect(created.status).toBe(201);
    observation = created.body;
  });

  it.each(['_elements=valueQuantity,status', '_elements=value', '_summary=true', '_summary=data', '_summary=false'])(
    'a member reading with %s does not see the hidden value',
    async (query) => {
      const base = `fhir/R4/Observation/${observation.id}`;
      for (const url of [base, `${base}/_history/${observation.meta.versionId}`]) {
        const answer = await http<Res>('GET', `${url}?${query}`, { token: member.token });
        expect(answer.status).toBe(200);
        expect(answer.body).not.toHaveProperty('valueQuantity');
      }
      // The owner sees it through the same query (Observation.value[x] is a summary element).
      const owners = await http<Res>('GET', `${base}?${query}`, { token: owner.tokens.access_token });
      expect(owners.body.valueQuantity).toEqual(observation.valueQuantity);
    },
  );
});
