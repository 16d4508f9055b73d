import { describe, expect, it } from 'vitest';
import { planFile } from './importPlan';

describe('planFile', () => {
  it('sends transaction Bundles as they are', () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [{ resource: { resourceType: 'Patient' }, request: { method: 'POST', url: 'Patient' } }],
    };
    const plan = planFile('a.json', JSON.stringify(bundle));
    expect(plan.requests).toHaveLength(1);
    expect(plan.requests[0].bundle).toEqual(bundle);
    expect(plan.resourceCount).toBe(1);
  });

  it('turns collections into chunked batches, keeping ids with PUT', () => {
    const entry = Array.from({ length: 5 }, (_, i) => ({
      resource: { resourceType: 'Patient', ...(i % 2 ? { id: `p${i}` } : {}) },
    }));
    const plan = planFile('c.json', JSON.stringify({ resourceType: 'Bundle', type: 'collection', entry }), 2);
    expect(plan.requests.map((r) => r.bundle.entry?.length)).toEqual([2, 2, 1]);
    expect(plan.requests[0].bundle.type).toBe('batch');
    expect(plan.requests[0].bundle.entry?.map((e) => e.request)).toEqual([
      { method: 'POST', url: 'Patient' },
      { method: 'PUT', url: 'Patient/p1' },
    ]);
    expect(plan.requests[1].origins).toEqual(['entry 2', 'entry 3']);
  });

  it('reads NDJSON line by line and reports bad lines with their number', () => {
    const text = [
      '{"resourceType":"Patient","id":"a"}',
      '',
      'not json',
      '{"no":"type"}',
      '{"resourceType":"Observation","status":"final"}',
    ].join('\n');
    const plan = planFile('d.ndjson', text);
    expect(plan.resourceCount).toBe(2);
    expect(plan.requests[0].origins).toEqual(['line 1', 'line 5']);
    expect(plan.problems.map((p) => p.where)).toEqual(['line 3', 'line 4']);
  });

  it('reports a file that is not JSON or not FHIR', () => {
    expect(planFile('x.json', '{oops').problems[0].message).toMatch(/^Not valid JSON/);
    expect(planFile('y.json', '{"a":1}').problems[0].message).toBe('Not a FHIR resource (no resourceType)');
  });
});
