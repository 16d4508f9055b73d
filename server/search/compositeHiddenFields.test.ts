import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { memberUnderPolicy } from '../../tests/integration/policyMember';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * A search parameter that reads a field the caller's policy hides answers 403 (issue 14 item 9).
 * Composite parameters were not checked: `code-value-quantity`'s expression is the whole
 * Observation (its components read `code` and `value`), so a member whose policy hides
 * `Observation.value` could still learn each result's value, one comparison at a time.
 */
describe('composite search parameters and hidden fields', () => {
  const code = `hidden-${randomUUID().slice(0, 8)}`;
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let member: Awaited<ReturnType<typeof memberUnderPolicy>>;

  beforeAll(async () => {
    owner = await registerProjectOwner('Composite hidden fields');
    member = await memberUnderPolicy(owner.projectId, owner.tokens.access_token, {
      resource: [{ resourceType: 'Observation', hiddenFields: ['valueQuantity'] }],
    });
    const created = await http<any>('POST', 'fhir/R4/Observation', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'urn:test', code }] },
        valueQuantity: { value: 180, unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' },
      },
    });
    expect(created.status).toBe(201);
  });

  it('the member sees the Observation without its value', async () => {
    const answer = await http<any>('GET', `fhir/R4/Observation?code=urn:test|${code}`, { token: member.token });
    expect(answer.status).toBe(200);
    expect(answer.body.entry).toHaveLength(1);
    expect(answer.body.entry[0].resource.valueQuantity).toBeUndefined();
  });

  it.each(['code-value-quantity', 'combo-code-value-quantity'])(
    'refuses %s, which would reveal the hidden value one comparison at a time',
    async (parameter) => {
      const probe = await http<any>('GET', `fhir/R4/Observation?${parameter}=urn:test|${code}$gt100`, {
        token: member.token,
      });
      expect(probe.status).toBe(403);
      expect(issueExpressions(probe.body)).toEqual([parameter]);
      expect(issueText(probe.body)).toContain('Observation.value');
    },
  );

  it('still lets the owner search by the composite', async () => {
    const answer = await http<any>('GET', `fhir/R4/Observation?code-value-quantity=urn:test|${code}$gt100`, {
      token: owner.tokens.access_token,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.entry).toHaveLength(1);
  });
});
