import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { searchExpressionLimits } from './searchExpressionCost';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * A project admin's SearchParameter runs on every write of its base type in the project, on the
 * event loop every project shares. An expression whose cost is not bounded by the resource (each
 * `select` doubling the collection: 2^40 strings from a Patient with one name) would stall every
 * write of that type, and every other request meanwhile. Such expressions are refused on write.
 */
describe("a project admin's costly SearchParameter expression", () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  const doubling = `Patient.name.family${".select(($this & 'a') | ($this & 'b'))".repeat(40)}`;
  const parameter = (code: string, expression: string, extra: Record<string, unknown> = {}) => ({
    resourceType: 'SearchParameter',
    url: `http://example.org/SearchParameter/${code}`,
    name: code,
    status: 'active',
    description: 'costly',
    code,
    base: ['Patient'],
    type: 'string',
    expression,
    ...extra,
  });
  const code = () => `cost${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    owner = await registerProjectOwner('Costly expressions');
  });

  it('is refused with 400 at SearchParameter.expression, by POST, PUT and in a transaction', async () => {
    const token = owner.tokens.access_token;
    const created = await http<any>('POST', 'fhir/R4/SearchParameter', { token, body: parameter(code(), doubling) });
    expect(created.status).toBe(400);
    expect(issueExpressions(created.body)).toEqual(['SearchParameter.expression']);
    expect(issueText(created.body)).toMatch(/select\(\) is not allowed/);

    const fine = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token,
      body: parameter(code(), "Patient.name.where(use = 'nickname').given"),
    });
    expect(fine.status).toBe(201);
    const put = await http<any>('PUT', `fhir/R4/SearchParameter/${fine.body.id}`, {
      token,
      body: { ...fine.body, expression: "Patient.name.given.where($this.matches('^(a+)+$'))" },
    });
    expect(put.status).toBe(400);
    expect(issueText(put.body)).toMatch(/matches\(\) is not allowed/);

    const transaction = await http<any>('POST', 'fhir/R4', {
      token,
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            resource: parameter(code(), 'Patient.descendants()'),
            request: { method: 'POST', url: 'SearchParameter' },
          },
        ],
      },
    });
    expect(transaction.status).toBe(400);
    expect(issueExpressions(transaction.body)).toEqual(['Bundle.entry[0].resource.expression']);
  });

  it('refuses a composite whose component rereads the whole resource for every item', async () => {
    const answer = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token: owner.tokens.access_token,
      body: parameter(code(), 'Patient.name', {
        type: 'composite',
        component: [
          {
            definition: 'http://hl7.org/fhir/SearchParameter/individual-family',
            expression: 'family.where(%resource.name.where(%resource.name.exists()).exists())',
          },
          { definition: 'http://hl7.org/fhir/SearchParameter/individual-given', expression: 'given' },
        ],
      }),
    });
    expect(answer.status).toBe(400);
    expect(issueExpressions(answer.body)).toEqual(['SearchParameter.component[0].expression']);
  });

  it('refuses an expression longer than the limit before parsing it', async () => {
    const long = `Patient.name.where(${Array.from({ length: 2_000 }, (_, i) => `given = 'n${i}'`).join(' or ')})`;
    const answer = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token: owner.tokens.access_token,
      body: parameter(code(), long),
    });
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toMatch(/characters long/);
  });

  it('a project may have a bounded number of its own parameters per type, in one transaction or many', async () => {
    const limit = searchExpressionLimits.maxProjectParametersPerType;
    const entries = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        resource: parameter(code(), `Basic.code.coding.where(code = 'c${i}')`, { base: ['Basic'], type: 'token' }),
        request: { method: 'POST', url: 'SearchParameter' },
      }));
    const post = (token: string, count: number) =>
      http<any>('POST', 'fhir/R4', {
        token,
        body: { resourceType: 'Bundle', type: 'transaction', entry: entries(count) },
      });

    const many = await registerProjectOwner('Many parameters at once');
    const atOnce = await post(many.tokens.access_token, limit + 1);
    expect(atOnce.status).toBe(422);
    expect(issueExpressions(atOnce.body)).toEqual([`Bundle.entry[${limit}].resource.base`]);
    expect(issueText(atOnce.body)).toContain(`at most ${limit}`);

    const token = owner.tokens.access_token;
    expect((await post(token, limit)).status).toBe(200);
    const more = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token,
      body: parameter(code(), 'Basic.code.text', { base: ['Basic'] }),
    });
    expect(more.status).toBe(422);
    expect(issueExpressions(more.body)).toEqual(['SearchParameter.base']);
    // Other types, and re-uploads of base definitions (which add no work), are not affected.
    expect(
      (await http<any>('POST', 'fhir/R4/SearchParameter', { token, body: parameter(code(), 'Patient.name.given') }))
        .status,
    ).toBe(201);
    const across = await http<any>('POST', 'fhir/R4/SearchParameter', {
      token,
      body: parameter(code(), 'Resource.id', { base: ['Resource'], type: 'token' }),
    });
    expect(across.status).toBe(422);
  });
});
