import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { registerProjectOwner, signInWithScope } from '../../tests/integration/accounts';
import { clinicWithPatientRegistration, registerPatient } from '../../tests/integration/patientAccounts';
import { inviteMember } from '../admin/projectMembers.test-support';
import { graphqlLimits } from './graphqlLimits';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL and FHIR answers of many shapes */
interface GraphqlAnswer {
  data?: any;
  errors?: { message: string }[];
}

/**
 * Reverse references (https://hl7.org/fhir/R4/graphql.html#reverse): `Patient { ObservationList(
 * _reference: subject, …) }` is the search `Observation?subject=Patient/{id}&…`, run as the caller.
 */
describe('FHIR GraphQL reverse references', () => {
  let owner: string;
  let finalOnly: string;
  const ids: Record<string, string> = {};
  const query = async (source: string, token = owner, variables?: Record<string, unknown>) => {
    const answer = await http<GraphqlAnswer>('POST', 'fhir/R4/$graphql', {
      token,
      body: { query: source, variables },
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const create = async (token: string, body: Record<string, unknown>) => {
    const answer = await http<any>('POST', `fhir/R4/${body.resourceType as string}`, { token, body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id as string;
  };
  const observation = (patient: string, text: string, date: string, status = 'final', extra = {}) => ({
    resourceType: 'Observation',
    status,
    code: { text },
    subject: { reference: `Patient/${patient}` },
    effectiveDateTime: date,
    ...extra,
  });

  beforeAll(async () => {
    const project = await registerProjectOwner('GraphQL Reverse Clinic');
    owner = project.tokens.access_token;
    ids.gwen = await create(owner, { resourceType: 'Patient', name: [{ family: 'Reverse Gwen' }] });
    ids.hal = await create(owner, { resourceType: 'Patient', name: [{ family: 'Reverse Hal' }] });
    ids.order = await create(owner, {
      resourceType: 'ServiceRequest',
      status: 'active',
      intent: 'order',
      subject: { reference: `Patient/${ids.gwen}` },
    });
    ids.old = await create(owner, observation(ids.gwen, 'Old weight', '2020-01-01'));
    ids.mid = await create(owner, observation(ids.gwen, 'Mid weight', '2021-01-01', 'preliminary'));
    ids.new = await create(
      owner,
      observation(ids.gwen, 'New weight', '2022-01-01', 'final', {
        basedOn: [{ reference: `ServiceRequest/${ids.order}` }],
      }),
    );
    ids.halObs = await create(owner, observation(ids.hal, 'Hal weight', '2022-06-01'));
    finalOnly = (
      await inviteMember(owner, project.projectId, {
        policy: {
          resource: [
            { resourceType: 'Patient', readonly: true },
            { resourceType: 'Observation', readonly: true, criteria: 'Observation?status=final' },
          ],
        },
      })
    ).token;
  });

  it('lists the resources that point at each resource, sorted, counted and paged as asked', async () => {
    const answer = await query(`{
      Patient(id: "${ids.gwen}") {
        all: ObservationList(_reference: subject, _sort: "-date") { id code { text } }
        newest: ObservationList(_reference: "subject", _sort: "-date", _count: 2) { id }
        second: ObservationList(_reference: patient, _sort: "date", _count: 1, _offset: 1) { id }
      }
      ServiceRequest(id: "${ids.order}") { ObservationList(_reference: based_on) { id } }
      PatientList(_id: "${ids.gwen},${ids.hal}", _sort: "family") {
        id ObservationList(_reference: subject, _sort: "date") { id }
      }
    }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.Patient.all).toEqual([
      { id: ids.new, code: { text: 'New weight' } },
      { id: ids.mid, code: { text: 'Mid weight' } },
      { id: ids.old, code: { text: 'Old weight' } },
    ]);
    expect(answer.data.Patient.newest).toEqual([{ id: ids.new }, { id: ids.mid }]);
    expect(answer.data.Patient.second).toEqual([{ id: ids.mid }]);
    expect(answer.data.ServiceRequest.ObservationList).toEqual([{ id: ids.new }]);
    // Each patient of a list gets its own: nothing of another resource's.
    expect(answer.data.PatientList).toEqual([
      { id: ids.gwen, ObservationList: [{ id: ids.old }, { id: ids.mid }, { id: ids.new }] },
      { id: ids.hal, ObservationList: [{ id: ids.halObs }] },
    ]);
  });

  it('narrows with _filter', async () => {
    const answer = await query(`{
      Patient(id: "${ids.gwen}") {
        ObservationList(_reference: subject, _filter: "date ge 2021-01-01", _sort: "date") { id }
      }
    }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.Patient.ObservationList).toEqual([{ id: ids.mid }, { id: ids.new }]);
  });

  it("answers a restricted caller what its own search would, never another project's resources", async () => {
    // Another project points an Observation at this project's patient (its id is not a secret).
    const other = (await registerProjectOwner('GraphQL Reverse Elsewhere')).tokens.access_token;
    const foreign = await http<any>('POST', 'fhir/R4/Observation', {
      token: other,
      body: observation(ids.gwen, 'Foreign weight', '2023-01-01'),
    });
    const reverse = `{ Patient(id: "${ids.gwen}") { ObservationList(_reference: subject, _sort: "date") { id } } }`;
    const ownerAnswer = await query(reverse);
    expect(ownerAnswer.data.Patient.ObservationList).toEqual([{ id: ids.old }, { id: ids.mid }, { id: ids.new }]);
    if (foreign.status === 201) {
      expect(ownerAnswer.data.Patient.ObservationList.map((o: { id: string }) => o.id)).not.toContain(foreign.body.id);
    }
    // The member's policy admits final Observations only: the preliminary one is not listed.
    const restricted = await query(reverse, finalOnly);
    expect(restricted.errors).toBeUndefined();
    expect(restricted.data.Patient.ObservationList).toEqual([{ id: ids.old }, { id: ids.new }]);
    const search = await http<any>('GET', `fhir/R4/Observation?subject=Patient/${ids.gwen}&_sort=date`, {
      token: finalOnly,
    });
    expect(search.body.entry.map((e: { resource: { id: string } }) => ({ id: e.resource.id }))).toEqual(
      restricted.data.Patient.ObservationList,
    );
  });

  it('counts each search of a fan-out against the budget of reads and searches', async () => {
    // Two patients, each asked for its Observations under enough aliases to pass the budget.
    const perPatient = Math.floor(graphqlLimits.maxDatabaseCalls / 2) + 1;
    const aliases = (n: number) =>
      Array.from({ length: n }, (_, i) => `o${i}: ObservationList(_reference: subject, _count: 1) { id }`).join(' ');
    const list = (n: number) => `{ PatientList(_id: "${ids.gwen},${ids.hal}") { id ${aliases(n)} } }`;
    const refused = await query(list(perPatient));
    expect(refused.data ?? null).toBeNull();
    expect(refused.errors?.map((e) => e.message)).toEqual([
      `The query needs more than ${graphqlLimits.maxDatabaseCalls} reads and searches`,
    ]);
    const fewer = await query(list(3));
    expect(fewer.errors).toBeUndefined();
    expect(fewer.data.PatientList).toHaveLength(2);
  });

  it('refuses a _reference that names no reference parameter pointing at the type, before anything runs', async () => {
    for (const [source, named] of [
      [`Patient(id: "${ids.gwen}") { ObservationList(_reference: code) { id } }`, 'code'],
      [`Patient(id: "${ids.gwen}") { ObservationList(_reference: "nothing") { id } }`, 'nothing'],
      // Observation.subject cannot point at an Organization.
      ['OrganizationList(_count: 1) { ObservationList(_reference: subject) { id } }', 'subject'],
    ]) {
      const answer = await query(`{ ${source} }`);
      expect(answer.data).toBeUndefined();
      expect(answer.errors?.[0].message).toContain(`Argument "_reference" of field "ObservationList"`);
      expect(answer.errors?.[0].message).toContain(`"${named}" is not a reference search parameter of Observation`);
      expect(answer.errors?.[0].message).toMatch(/that can point at (a Patient|an Organization) \(expected one of: /);
    }
    // A variable's value is checked when the field resolves, with the same words.
    const variable = await query(
      `query($ref: SearchParameterCode!) { Patient(id: "${ids.gwen}") { ObservationList(_reference: $ref) { id } } }`,
      owner,
      { ref: 'code' },
    );
    expect(variable.data.Patient.ObservationList).toBeNull();
    expect(variable.errors?.[0].message).toContain('"code" is not a reference search parameter of Observation');
  });

  it('as attackers: a patient and a scope-narrowed app get through reverse references only what their searches would', async () => {
    const clinic = await clinicWithPatientRegistration('GraphQL Reverse Portal');
    const clinicOwner = clinic.tokens.access_token;
    const patient = await registerPatient(clinic.projectId);
    const ownId = patient.patient.split('/')[1];
    const otherId = await create(clinicOwner, { resourceType: 'Patient', name: [{ family: 'Reverse Other' }] });
    const own = await create(clinicOwner, observation(ownId, 'Own weight', '2023-01-01'));
    const foreign = await create(clinicOwner, observation(otherId, 'Other weight', '2023-01-02'));

    // The patient: their own Observations from their own record...
    const mine = await query(
      `{ Patient(id: "${ownId}") { ObservationList(_reference: subject) { id } } }`,
      patient.token,
    );
    expect(mine.errors).toBeUndefined();
    expect(mine.data.Patient.ObservationList.map((o: { id: string }) => o.id)).toEqual([own]);
    // ...and nothing of another patient's, from that patient or from a list of patients.
    for (const source of [
      `{ Patient(id: "${otherId}") { ObservationList(_reference: subject) { id } } }`,
      `{ PatientList { id ObservationList(_reference: subject) { id } } }`,
    ]) {
      const answer = await query(source, patient.token);
      expect(JSON.stringify(answer)).not.toContain(foreign);
      expect(JSON.stringify(answer.data ?? {})).not.toContain(otherId);
    }

    // An app whose SMART scopes grant Patients only: no Observations through a Patient either.
    const app = await signInWithScope(clinic.email, clinic.password, 'openid user/Patient.rs');
    const narrowed = await query(
      `{ Patient(id: "${ownId}") { id ObservationList(_reference: subject) { id } } }`,
      app.access_token as string,
    );
    expect(narrowed.data?.Patient?.id).toBe(ownId);
    expect(narrowed.data?.Patient?.ObservationList ?? null).toBeNull();
    expect(narrowed.errors?.length).toBeGreaterThan(0);
    expect(JSON.stringify(narrowed)).not.toContain(own);
  });
});
