import { describe, expect, it } from 'vitest';
import { queryFromString } from '../fhir/fhirOperations';
import { definitionSearchParameters } from '../serverRuntime';
import { parseSearchRequest } from './searchRequest';
import { buildWhere, SqlParams } from './searchSql';

/** The WHERE clause and parameters the server builds for a search. */
function where(search: string) {
  const [resourceType, query = ''] = search.split('?', 2);
  const params = new SqlParams();
  const sql = buildWhere(
    parseSearchRequest(resourceType, queryFromString(query), definitionSearchParameters()),
    params,
    {},
  );
  return { sql, values: params.values };
}

describe('token equality on the indexed prefix', () => {
  it('compares a value shorter than the prefix on the prefix alone (one test, which the planner estimates right)', () => {
    const { sql } = where('Observation?code=http://loinc.org|8302-2');
    expect(sql).toMatch(/left\(t\d+\.system, 256\) = \$\d+::text/);
    expect(sql).toMatch(/left\(t\d+\.value, 256\) = \$\d+::text/);
    // Not also `value = …`: the doubled test made PostgreSQL sort 100,000 rows at 1M resources.
    expect(sql).not.toMatch(/t\d+\.value = /);
    expect(sql).not.toMatch(/t\d+\.system = /);
  });

  it('adds the full comparison for a value the prefix cannot decide (256 characters or more)', () => {
    const long = 'x'.repeat(300);
    const { sql, values } = where(`Observation?code=http://loinc.org|${long}`);
    expect(sql).toMatch(/left\(t\d+\.value, 256\) = \$\d+::text AND t\d+\.value = \$\d+/);
    expect(values).toContain(long);
    expect(values).toContain('x'.repeat(256));
  });
});
