import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { patientProfile } from '../profiles/patientProfile.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * A profile's constraints are FHIRPath its project admin wrote, run by `$validate` on the shared
 * event loop: one of exponential cost held every request of the server.
 */
describe('profile invariants under a time budget', () => {
  let token: string;
  const url = `http://example.org/StructureDefinition/costly-${Date.now()}`;
  // Nested filters over 30 numbers: 30^4 evaluations of the innermost test (~10 s of fhirpath.js),
  // in little memory, so that nothing but the time box stops it.
  const numbers = `(${Array.from({ length: 30 }, (_, i) => i + 1).join(' | ')})`;
  let costly = '$this > 100';
  for (let depth = 0; depth < 4; depth++) costly = `${numbers}.where(${costly}).exists()`;

  beforeAll(async () => {
    token = (await registerProjectOwner('Invariant Budget Clinic')).tokens.access_token;
    const profile = patientProfile(url, 'CostlyPatient', {
      differential: {
        element: [
          {
            id: 'Patient',
            path: 'Patient',
            constraint: [
              { key: 'named-1', severity: 'error', human: 'A name is required', expression: 'name.exists()' },
              { key: 'costly-1', severity: 'error', human: 'Costly', expression: costly },
            ],
          },
        ],
      },
    });
    const created = await http<any>('POST', 'fhir/R4/StructureDefinition', { token, body: profile });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  it('stops the invariants when their time is spent and says so', async () => {
    const answer = await http<any>('POST', 'fhir/R4/Patient/$validate', {
      token,
      body: { resourceType: 'Patient', id: 'x1', meta: { profile: [url] }, name: [{ family: 'Budget' }] },
    });
    expect(answer.status).toBe(200);
    const issues = answer.body.issue as any[];
    expect(issues.find((issue) => issue.code === 'too-costly')?.details.text).toMatch(/invariants took more than/);
  });

  it('still evaluates the profile’s ordinary invariants', async () => {
    const cheap = `${url}-cheap`;
    const profile = (await http<any>('GET', `fhir/R4/StructureDefinition?url=${encodeURIComponent(url)}`, { token }))
      .body.entry[0].resource;
    const created = await http<any>('POST', 'fhir/R4/StructureDefinition', {
      token,
      body: {
        ...profile,
        id: undefined,
        meta: undefined,
        url: cheap,
        snapshot: undefined,
        differential: {
          element: [
            {
              id: 'Patient',
              path: 'Patient',
              constraint: [
                { key: 'named-1', severity: 'error', human: 'A name is required', expression: 'name.exists()' },
              ],
            },
          ],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const answer = await http<any>('POST', 'fhir/R4/Patient/$validate', {
      token,
      body: { resourceType: 'Patient', meta: { profile: [cheap] } },
    });
    const texts = (answer.body.issue as any[]).map((issue) => issue.details.text as string);
    expect(texts.join('\n')).toContain('Constraint named-1 not met: A name is required');
  });
});
