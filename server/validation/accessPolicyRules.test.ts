import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** QA: `resource[].resourceType: "Communicaton"` saved, and silently granted nothing. */
describe('an AccessPolicy names resource types the server knows', () => {
  let token: string;
  const send = (method: string, path: string, body: unknown) => http<any>(method, `fhir/R4/${path}`, { token, body });

  beforeAll(async () => {
    token = (await registerProjectOwner('Policy Typo Clinic')).tokens.access_token;
  });

  it('refuses a misspelled type with 400 naming the entry and the closest type, on create and update', async () => {
    const policy = {
      resourceType: 'AccessPolicy',
      name: 'Front desk (typo)',
      resource: [{ resourceType: 'Patient' }, { resourceType: 'Communicaton' }],
    };
    const created = await send('POST', 'AccessPolicy', policy);
    expect(created.status).toBe(400);
    expect(created.body.resourceType).toBe('OperationOutcome');
    expect(issueExpressions(created.body)).toEqual(['AccessPolicy.resource[1].resourceType']);
    expect(issueText(created.body)).toBe(
      'Unknown resource type "Communicaton" (did you mean Communication?): an access policy entry must name a resource type or "*"',
    );
    const fine = await send('POST', 'AccessPolicy', {
      ...policy,
      // R4 types, Medplum's own types and `*` are all known.
      resource: [
        { resourceType: 'Communication' },
        { resourceType: 'Bot' },
        { resourceType: 'ProjectMembership', readonly: true },
        { resourceType: '*', readonly: true },
      ],
    });
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
    const updated = await send('PUT', `AccessPolicy/${fine.body.id}`, {
      ...fine.body,
      resource: [...fine.body.resource, { resourceType: 'Whatever' }],
    });
    expect(updated.status).toBe(400);
    expect(issueExpressions(updated.body)).toEqual(['AccessPolicy.resource[4].resourceType']);
    expect(issueText(updated.body)).not.toMatch(/did you mean/);
    expect((await send('GET', `AccessPolicy/${fine.body.id}`, undefined)).body.meta.versionId).toBe(
      fine.body.meta.versionId,
    );
  });
});
