import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';

async function countByIdentifier(type: string, value: string): Promise<number> {
  const answer = await http<{ total: number }>('GET', `fhir/R4/${type}?identifier=${value}&_total=accurate`);
  return answer.body.total;
}

describe('validation before every write', () => {
  const cases: { name: string; type: string; body: Record<string, unknown>; expression: string; text: RegExp }[] = [
    {
      name: 'a bad date',
      type: 'Patient',
      body: { birthDate: '1980-13-01' },
      expression: 'Patient.birthDate',
      text: /date/i,
    },
    {
      name: 'a dateTime without zone',
      type: 'Patient',
      body: { deceasedDateTime: '2020-01-01T10:00:00' },
      expression: 'Patient.deceasedDateTime',
      text: /dateTime/i,
    },
    {
      name: 'an unknown property',
      type: 'Patient',
      body: { favouriteColour: 'blue' },
      expression: 'Patient.favouriteColour',
      text: /additional property/,
    },
    {
      name: 'a value outside the required code list',
      type: 'Patient',
      body: { gender: 'robot' },
      expression: 'Patient.gender',
      text: /expected one of/,
    },
    {
      name: 'a string where an array belongs',
      type: 'Patient',
      body: { name: { family: 'X' } },
      expression: 'Patient.name',
      text: /array/,
    },
    {
      name: 'a nested bad type',
      type: 'Patient',
      body: { name: [{ given: [42] }] },
      expression: 'Patient.name[0].given[0]',
      text: /string/i,
    },
    {
      name: 'a code with surrounding spaces',
      type: 'Patient',
      body: { language: ' en ' },
      expression: 'Patient.language',
      text: /code/i,
    },
    {
      name: 'a missing required element',
      type: 'Observation',
      body: { code: { text: 'x' } },
      expression: 'Observation.status',
      text: /Missing required property "status"/,
    },
    {
      name: 'an empty string',
      type: 'Patient',
      body: { name: [{ family: '' }] },
      expression: 'Patient.name[0].family',
      text: /.+/,
    },
  ];

  for (const testCase of cases) {
    it(`refuses ${testCase.name} with 400, the field path, and stores nothing`, async () => {
      const value = randomUUID();
      const body = { resourceType: testCase.type, identifier: [{ value }], ...testCase.body };
      const answer = await http('POST', `fhir/R4/${testCase.type}`, { body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ resourceType: 'OperationOutcome' });
      expect(issueExpressions(answer.body)).toContain(testCase.expression);
      const texts = ((answer.body as { issue: { details: { text: string } }[] }).issue ?? []).map(
        (i) => i.details.text,
      );
      expect(texts.some((t) => testCase.text.test(t))).toBe(true);
      expect(await countByIdentifier(testCase.type, value)).toBe(0);
    });
  }

  it('validates updates too, and keeps the stored version', async () => {
    const created = await http<{ id: string; meta: { versionId: string } }>('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', birthDate: '1970-01-01' },
    });
    const answer = await http('PUT', `fhir/R4/Patient/${created.body.id}`, {
      body: { resourceType: 'Patient', id: created.body.id, birthDate: '1970-02-30' },
    });
    expect(answer.status).toBe(400);
    expect(issueExpressions(answer.body)).toContain('Patient.birthDate');
    const read = await http<{ birthDate: string; meta: { versionId: string } }>(
      'GET',
      `fhir/R4/Patient/${created.body.id}`,
    );
    expect(read.body.birthDate).toBe('1970-01-01');
    expect(read.body.meta.versionId).toBe(created.body.meta.versionId);
  });

  it('validates contained resources', async () => {
    const answer = await http('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', contained: [{ resourceType: 'Organization', id: 'o', active: 'yes' }] },
    });
    expect(answer.status).toBe(400);
    expect(issueExpressions(answer.body).some((e) => e.startsWith('Patient.contained[0]'))).toBe(true);
  });

  it('accepts Medplum admin types and primitive extensions', async () => {
    const answer = await http('POST', 'fhir/R4/Patient', {
      body: {
        resourceType: 'Patient',
        birthDate: '1990',
        _birthDate: { extension: [{ url: 'http://example.org/x', valueString: 'approx' }] },
      },
    });
    expect(answer.status).toBe(201);
    const policy = await http('POST', 'fhir/R4/AccessPolicy', {
      body: {
        resourceType: 'AccessPolicy',
        name: 'Read only',
        resource: [{ resourceType: 'Patient', readonly: true }],
      },
    });
    expect(policy.status).toBe(201);
  });
});

describe('malformed requests never produce a 500', () => {
  it('answers 400 for invalid JSON', async () => {
    const answer = await http('POST', 'fhir/R4/Patient', {
      rawBody: '{"resourceType": "Patient",',
      headers: { 'content-type': 'application/fhir+json' },
    });
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toMatch(/^Invalid JSON/);
  });

  it('answers 400 for a body that is not an object', async () => {
    const answer = await http('POST', 'fhir/R4/Patient', { body: [1, 2, 3] });
    expect(answer.status).toBe(400);
  });

  it('answers 415 for an unsupported content type', async () => {
    const answer = await http('POST', 'fhir/R4/Patient', {
      rawBody: '<Patient/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ resourceType: 'OperationOutcome' });
  });

  it('answers 413 for a body over the size limit', async () => {
    const big = {
      resourceType: 'Patient',
      text: {
        status: 'generated',
        div: `<div xmlns="http://www.w3.org/1999/xhtml">${'x'.repeat(9 * 1024 * 1024)}</div>`,
      },
    };
    const answer = await http('POST', 'fhir/R4/Patient', { body: big });
    expect(answer.status).toBe(413);
    expect(issueText(answer.body)).toContain('larger than the limit');
  });

  it('answers 404 OperationOutcome for unknown API paths', async () => {
    const answer = await http('GET', 'fhir/R4/Patient/1/2/3/4');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'not-found' }] });
  });
});
