import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';

interface GraphqlAnswer<T> {
  data?: T;
  errors?: { message: string }[];
}

async function query<T>(source: string, variables?: Record<string, unknown>): Promise<GraphqlAnswer<T>> {
  const answer = await http<GraphqlAnswer<T>>('POST', 'fhir/R4/$graphql', {
    body: { query: source, variables },
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

const family = `Graph${randomUUID().slice(0, 8)}`;
const mrn = randomUUID();
let patientId = '';
let serviceRequestId = '';

beforeAll(async () => {
  const patient = await http<{ id: string }>('POST', 'fhir/R4/Patient', {
    body: {
      resourceType: 'Patient',
      name: [{ given: ['Gwen'], family }],
      identifier: [{ system: 'urn:mrn', value: mrn }],
      birthDate: '1970-05-06',
    },
  });
  patientId = patient.body.id;
  const request = await http<{ id: string }>('POST', 'fhir/R4/ServiceRequest', {
    body: {
      resourceType: 'ServiceRequest',
      status: 'active',
      intent: 'order',
      subject: { reference: `Patient/${patientId}` },
      identifier: [{ value: mrn }],
      code: { text: 'CBC' },
    },
  });
  serviceRequestId = request.body.id;
  await http('POST', 'fhir/R4/Observation', {
    body: {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Weight' },
      subject: { reference: `Patient/${patientId}` },
      valueQuantity: { value: 72.5, unit: 'kg' },
    },
  });
});

describe("FHIR GraphQL: the app's queries", () => {
  it('global search: PatientList by name, identifier and _id; ServiceRequestList by identifier and _id', async () => {
    const answer = await query<Record<string, { id: string; name?: { family: string }[] }[]>>(`{
      byName: PatientList(name: "${family}", _count: 5) { id name { given family } }
      byIdentifier: PatientList(identifier: "${mrn}", _count: 5) { id }
      byId: PatientList(_id: "${patientId}") { id birthDate }
      requests: ServiceRequestList(identifier: "${mrn}", _count: 5) { id }
      requestById: ServiceRequestList(_id: "${serviceRequestId}") { id status }
    }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.byName.map((p) => p.id)).toEqual([patientId]);
    expect(answer.data?.byName[0].name?.[0].family).toBe(family);
    expect(answer.data?.byIdentifier.map((p) => p.id)).toEqual([patientId]);
    expect(answer.data?.byId).toEqual([{ id: patientId, birthDate: '1970-05-06' }]);
    expect(answer.data?.requests.map((r) => r.id)).toEqual([serviceRequestId]);
    expect(answer.data?.requestById).toEqual([{ id: serviceRequestId, status: 'active' }]);
  });

  it('schema load: StructureDefinitionList by url and SearchParameterList by base in pages of 100', async () => {
    const answer = await query<{
      StructureDefinitionList: {
        type: string;
        name: string;
        title?: string;
        snapshot: { element: { path: string; min: number; max: string; type?: { code: string }[] }[] };
      }[];
      SearchParameterList: { base: string[]; code: string; type: string; expression?: string; target?: string[] }[];
    }>(
      `query Schema($url: String!) {
      StructureDefinitionList(url: $url, _sort: "-_lastUpdated", _count: 1) { type name title snapshot { element { path min max type { code } } } }
      SearchParameterList(base: "Patient", _count: 100, _offset: 0) { base code type expression target }
    }`,
      { url: 'http://hl7.org/fhir/StructureDefinition/Patient' },
    );
    expect(answer.errors).toBeUndefined();
    const [patient] = answer.data!.StructureDefinitionList;
    expect(patient.type).toBe('Patient');
    expect(patient.name).toBe('Patient');
    expect(patient.snapshot.element.find((e) => e.path === 'Patient.name')).toMatchObject({
      min: 0,
      max: '*',
      type: [{ code: 'HumanName' }],
    });
    const params = answer.data!.SearchParameterList;
    expect(params.length).toBeGreaterThan(20);
    expect(params.length).toBeLessThanOrEqual(100);
    expect(params.every((p) => p.base.includes('Patient'))).toBe(true);
    expect(params.map((p) => p.code)).toContain('birthdate');
  });

  it('reads by id, resolves references and follows choice types', async () => {
    const answer = await query<{
      ObservationList: {
        valueQuantity: { value: number; unit: string };
        subject: { reference: string; resource: { __typename: string; id: string; name: { family: string }[] } };
      }[];
      Patient: { id: string; identifier: { value: string }[] };
    }>(`{
      ObservationList(subject: "Patient/${patientId}") {
        valueQuantity { value unit }
        subject { reference resource { __typename ... on Patient { id name { family } } } }
      }
      Patient(id: "${patientId}") { id identifier { value } }
    }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.ObservationList).toEqual([
      {
        valueQuantity: { value: 72.5, unit: 'kg' },
        subject: {
          reference: `Patient/${patientId}`,
          resource: { __typename: 'Patient', id: patientId, name: [{ family }] },
        },
      },
    ]);
    expect(answer.data?.Patient).toEqual({ id: patientId, identifier: [{ value: mrn }] });
  });

  it('pages with {Type}Connection', async () => {
    const answer = await query<{
      PatientConnection: {
        count: number;
        offset: number;
        pageSize: number;
        edges: { mode: string; resource: { id: string } }[];
      };
    }>(`{
      PatientConnection(family: "${family}", _count: 1) { count offset pageSize edges { mode resource { id } } }
    }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.PatientConnection).toEqual({
      count: 1,
      offset: 0,
      pageSize: 1,
      edges: [{ mode: 'match', resource: { id: patientId } }],
    });
  });

  it('never exposes protected fields', async () => {
    const answer = await query('{ UserList { email passwordHash } }');
    expect(answer.errors?.[0].message).toContain('Cannot query field "passwordHash" on type "User"');
  });
});

describe('FHIR GraphQL errors', () => {
  it('reports an unknown field, a bad argument and a missing resource in errors', async () => {
    expect((await query('{ PatientList { colour } }')).errors?.[0].message).toContain(
      'Cannot query field "colour" on type "Patient"',
    );
    expect((await query('{ PatientList(birthdate: "notadate") { id } }')).errors?.[0].message).toContain(
      'Invalid date value',
    );
    expect((await query('{ PatientList(nickname: "x") { id } }')).errors?.[0].message).toContain(
      'Unknown argument "nickname"',
    );
    const missing = await query<{ Patient: null }>(`{ Patient(id: "${randomUUID()}") { id } }`);
    expect(missing.data?.Patient).toBeNull();
    expect(missing.errors?.[0].message).toBe('Not found');
    expect((await query('{ PatientList { id ')).errors?.[0].message).toContain('Syntax Error');
  });

  it('answers 400 without a query', async () => {
    const answer = await http('POST', 'fhir/R4/$graphql', {
      body: { variables: {} },
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
  });
});
