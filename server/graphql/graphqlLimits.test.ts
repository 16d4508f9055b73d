import { getIntrospectionQuery } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { inviteMember } from '../admin/projectMembers.test-support';
import { graphqlLimits } from './graphqlLimits';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL answers of many shapes */
interface GraphqlAnswer {
  data?: any;
  errors?: { message: string }[];
}

/**
 * The attacks on `$graphql`'s cost: a short query that makes the server read, compute or answer
 * without bound. Each is tried by a plain member (a patient for the schema), the least a caller
 * needs to be.
 */
describe('FHIR GraphQL cost limits', () => {
  let token: string;
  let patientToken: string;
  const ids: Record<string, string> = {};
  const query = async (source: string, as = token): Promise<GraphqlAnswer> => {
    const answer = await http<GraphqlAnswer>('POST', 'fhir/R4/$graphql', {
      token: as,
      body: { query: source },
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const refusal = (answer: GraphqlAnswer) => {
    expect(answer.data ?? null).toBeNull();
    expect(answer.errors).toHaveLength(1);
    return answer.errors?.[0].message;
  };

  beforeAll(async () => {
    const owner = await registerProjectOwner('GraphQL Limits Clinic');
    const create = async (body: Record<string, unknown>) => {
      const answer = await http<any>('POST', `fhir/R4/${body.resourceType as string}`, {
        token: owner.tokens.access_token,
        body,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { id: string };
    };
    // Two patients that link to each other: a reference cycle.
    ids.a = (await create({ resourceType: 'Patient', name: [{ family: 'Cycle A' }] })).id;
    ids.b = (
      await create({
        resourceType: 'Patient',
        name: [{ family: 'Cycle B' }],
        link: [{ other: { reference: `Patient/${ids.a}` }, type: 'seealso' }],
      })
    ).id;
    const a = (await http<any>('GET', `fhir/R4/Patient/${ids.a}`, { token: owner.tokens.access_token })).body;
    const linked = await http('PUT', `fhir/R4/Patient/${ids.a}`, {
      token: owner.tokens.access_token,
      body: { ...a, link: [{ other: { reference: `Patient/${ids.b}` }, type: 'seealso' }] },
    });
    expect(linked.status).toBe(200);
    const member = await inviteMember(owner.tokens.access_token, owner.projectId, {
      policy: { resource: [{ resourceType: 'Patient', readonly: true }] },
    });
    token = member.token;
    const patient = await inviteMember(owner.tokens.access_token, owner.projectId, {
      resourceType: 'Patient',
      policy: { resource: [{ resourceType: '*', compartment: { reference: '%profile' } }] },
    });
    patientToken = patient.token;
  });

  it('refuses a fragment bomb over a reference cycle before it reads anything', async () => {
    // Each fragment follows the link twice to the next: 2^12 reads of the database from 13 lines,
    // in one transaction (on the embedded database, every other request waits for it).
    let fragments = 'fragment F0 on Patient { id }\n';
    for (let i = 1; i <= 12; i++) {
      const hop = `link { other { resource { ... on Patient { ...F${i - 1} } } } }`;
      fragments += `fragment F${i} on Patient { x: ${hop} y: ${hop} }\n`;
    }
    const answer = await query(`{ Patient(id: "${ids.a}") { ...F12 } }\n${fragments}`);
    expect(refusal(answer)).toMatch(/^The query (nests fields more than 20 deep|selects more than 20000 fields)/);
  });

  it('stops a query at its budget of reads and searches', async () => {
    const reads = Array.from(
      { length: graphqlLimits.maxDatabaseCalls + 1 },
      (_, i) => `r${i}: Patient(id: "${ids.a}") { id }`,
    );
    const answer = await query(`{ ${reads.join(' ')} }`);
    expect(refusal(answer)).toBe(`The query needs more than ${graphqlLimits.maxDatabaseCalls} reads and searches`);
    // Within the budget, the same reads answer.
    const fewer = await query(`{ ${reads.slice(0, 50).join(' ')} }`);
    expect(fewer.errors).toBeUndefined();
    expect(fewer.data.r49).toEqual({ id: ids.a });
  });

  it('refuses an answer past its budget of field values at the list that would hold it', async () => {
    // A few hundred aliases on each element of each of 200 definitions: millions of values (and
    // the memory to hold them) from a query of a few kilobytes.
    const aliases = Array.from({ length: 300 }, (_, i) => `e${i}: id`).join(' ');
    const answer = await query(`{ StructureDefinitionList(_count: 200) { snapshot { element { ${aliases} } } } }`);
    expect(refusal(answer)).toBe(
      `The query's answer would hold more than ${graphqlLimits.maxFieldValues} field values`,
    );
  });

  it('refuses aliases in a query that reads the schema; the standard introspection query still answers', async () => {
    // Fifty aliases under every field of every type: ten megabytes per fifty, without a read.
    const aliases = Array.from({ length: 50 }, (_, i) => `n${i}: name`).join(' ');
    const bomb = await query(`{ __schema { types { fields { ${aliases} } } } }`, patientToken);
    expect(refusal(bomb)).toBe('A query that reads the schema (__schema, __type) cannot use aliases');
    const twice = await query('{ a: __type(name: "Patient") { name } b: __type(name: "Observation") { name } }');
    expect(refusal(twice)).toBe('A query that reads the schema (__schema, __type) cannot use aliases');
    const standard = await query(getIntrospectionQuery(), patientToken);
    expect(standard.errors).toBeUndefined();
    expect(standard.data.__schema.types.length).toBeGreaterThan(100);
  });

  it('refuses a query longer than its token limit without parsing the rest', async () => {
    const fields = Array.from({ length: graphqlLimits.maxTokens }, () => 'id').join(' ');
    const answer = await query(`{ PatientList { ${fields} } }`);
    expect(refusal(answer)).toContain(`${graphqlLimits.maxTokens} tokens. Parsing aborted`);
    // Within the tokens, nesting deeper than the parser's recursion follows is an answer too.
    const deep = await query(`{ PatientList ${'{ id '.repeat(40_000)}${'}'.repeat(40_001)}`);
    expect(refusal(deep)).toMatch(/nests/);
  });
});
