import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { planFile, type ImportRequest } from './importPlan';
import { runImport } from './importRunner';

const fixtures = join(__dirname, '../../tests/fixtures/synthea');

describe('runImport against the real server', () => {
  it('imports every Synthea fixture without error', async () => {
    const requests: ImportRequest[] = [];
    let expected = 0;
    for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.json'))) {
      const plan = planFile(file, readFileSync(join(fixtures, file), 'utf8'));
      expect(plan.problems).toEqual([]);
      requests.push(...plan.requests);
      expected += plan.resourceCount;
    }
    const progress: number[] = [];
    const result = await runImport(requests, {
      fhirBase: `${baseUrl()}fhir/R4/`,
      headers: { authorization: `Bearer ${inject('adminToken')}` },
      concurrency: 2,
      onProgress: (p) => progress.push(p.sent),
    });
    expect(result.problems).toEqual([]);
    expect(result.imported).toBe(expected);
    expect(progress[progress.length - 1]).toBe(expected);
  });

  it('reports a rejected NDJSON line by its number and imports the others', async () => {
    const marker = randomUUID();
    const lines = [
      { resourceType: 'Patient', identifier: [{ value: marker }] },
      { resourceType: 'Patient', identifier: [{ value: marker }], birthDate: 'soon' },
      { resourceType: 'Patient', identifier: [{ value: marker }] },
    ].map((r) => JSON.stringify(r));
    const plan = planFile('people.ndjson', lines.join('\n'), 2);
    const result = await runImport(plan.requests, {
      fhirBase: `${baseUrl()}fhir/R4/`,
      headers: { authorization: `Bearer ${inject('adminToken')}` },
      concurrency: 1,
    });
    expect(result.imported).toBe(2);
    expect(result.failed).toBe(1);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ file: 'people.ndjson', where: 'line 2' });
    expect(result.problems[0].message).toContain('birthDate');
    const search = await http<{ total: number }>('GET', `fhir/R4/Patient?identifier=${marker}&_total=accurate`);
    expect(search.body.total).toBe(2);
  });

  it('reports an unreachable server per request instead of throwing', async () => {
    const plan = planFile('one.ndjson', JSON.stringify({ resourceType: 'Patient' }));
    const result = await runImport(plan.requests, { fhirBase: 'http://127.0.0.1:9/fhir/R4/', concurrency: 1 });
    expect(result.imported).toBe(0);
    expect(result.problems[0].message).toMatch(/^Cannot reach the server/);
  });
});
