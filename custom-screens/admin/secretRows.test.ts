import { describe, expect, it } from 'vitest';
import { projectSettingsOf, secretIssueTarget, secretRowProblems, secretRowsOf } from './secretRows';

describe('secret rows', () => {
  const rows = secretRowsOf([
    { name: 'API_KEY', valueString: 'k' },
    { name: 'RETRIES', valueInteger: 3 },
    { name: 'LIVE', valueBoolean: false },
  ]);

  it('keeps each value with its type and gives it back unchanged', () => {
    expect(rows.map((row) => [row.name, row.field, row.value])).toEqual([
      ['API_KEY', 'valueString', 'k'],
      ['RETRIES', 'valueInteger', '3'],
      ['LIVE', 'valueBoolean', 'false'],
    ]);
    expect(projectSettingsOf(rows)).toEqual([
      { name: 'API_KEY', valueString: 'k' },
      { name: 'RETRIES', valueInteger: 3 },
      { name: 'LIVE', valueBoolean: false },
    ]);
  });

  it('names the problem of each row and field', () => {
    const edited = [
      { ...rows[0], name: 'API KEY' },
      { ...rows[1], value: '3.5' },
      { ...rows[2], value: 'maybe' },
      { ...rows[0], key: 'x', value: '' },
    ];
    expect(secretRowProblems(edited)).toEqual({
      [rows[0].key]: { name: 'Name must be 1–100 letters, digits, _ . or -' },
      [rows[1].key]: { value: 'The value must be a whole number' },
      [rows[2].key]: { value: 'The value must be true or false' },
      x: { value: 'A value is required' },
    });
    expect(secretRowProblems([rows[0], { ...rows[1], name: 'API_KEY' }])).toEqual({
      [rows[1].key]: { name: 'Duplicate name API_KEY' },
    });
  });

  it("places the server's issue paths under the row they name", () => {
    expect(secretIssueTarget(rows, 'secret[1].name')).toEqual({ key: rows[1].key, field: 'name' });
    expect(secretIssueTarget(rows, 'secret[2].value[x]')).toEqual({ key: rows[2].key, field: 'value' });
    expect(secretIssueTarget(rows, 'secret[9].name')).toBeUndefined();
    expect(secretIssueTarget(rows, 'secret')).toBeUndefined();
  });
});
