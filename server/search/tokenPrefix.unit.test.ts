import { describe, expect, it } from 'vitest';
import { searchWhere } from '../../tests/setup/searchWhere';

describe('token equality on the indexed prefix', () => {
  it('compares a value shorter than the prefix on the prefix alone (one test, which the planner estimates right)', () => {
    const { sql } = searchWhere('Observation?code=http://loinc.org|8302-2');
    expect(sql).toMatch(/left\(t\d+\.system, 256\) = \$\d+::text/);
    expect(sql).toMatch(/left\(t\d+\.value, 256\) = \$\d+::text/);
    // Not also `value = …`: the doubled test made PostgreSQL sort 100,000 rows at 1M resources.
    expect(sql).not.toMatch(/t\d+\.value = /);
    expect(sql).not.toMatch(/t\d+\.system = /);
  });

  it('adds the full comparison for a value the prefix cannot decide (256 characters or more)', () => {
    const long = 'x'.repeat(300);
    const { sql, values } = searchWhere(`Observation?code=http://loinc.org|${long}`);
    expect(sql).toMatch(/left\(t\d+\.value, 256\) = \$\d+::text AND t\d+\.value = \$\d+/);
    expect(values).toContain(long);
    expect(values).toContain('x'.repeat(256));
  });
});
