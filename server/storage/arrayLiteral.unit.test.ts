import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayLiteral } from './arrayLiteral';
import type { Database } from './database';
import { openPgliteDatabase } from './pgliteDatabase';

describe('arrayLiteral', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPgliteDatabase(undefined);
  });
  afterAll(async () => db.close());

  it('writes quoted strings, bare numbers and NULL', () => {
    expect(arrayLiteral(['a', null, 3.5, undefined, ''])).toBe('{"a",NULL,3.5,NULL,""}');
    expect(arrayLiteral([])).toBe('{}');
  });

  it('reads back in PostgreSQL exactly as given, whatever the characters', async () => {
    const values = [
      'plain',
      'with "quotes"',
      'back\\slash \\" both',
      'comma, {braces} and ;semicolon',
      'NULL',
      '',
      '  leading and trailing spaces  ',
      'line\nbreak\ttab',
      'ünïcödé 日本 🩺',
      null,
    ];
    const rows = await db.query<{ value: string | null }>('SELECT unnest($1::text[]) AS value', [arrayLiteral(values)]);
    expect(rows.map((row) => row.value)).toEqual(values);
  });

  it('carries numbers, instants and JSON in their own array types', async () => {
    const [row] = await db.query<{ numbers: string; instant: string; json: unknown }>(
      `SELECT (SELECT string_agg(n::text, ' ') FROM unnest($1::numeric[]) n) AS numbers,
              (SELECT extract(epoch FROM t)::text FROM unnest($2::timestamptz[]) t) AS instant,
              (SELECT j FROM unnest($3::jsonb[]) j) AS json`,
      [
        arrayLiteral([0.1, -2, 1e21, 120.25]),
        arrayLiteral(['2024-02-29T23:59:59.999Z']),
        arrayLiteral([JSON.stringify({ code: 'a"b\\c', value: [1, 2] })]),
      ],
    );
    expect(row.numbers).toBe('0.1 -2 1000000000000000000000 120.25');
    expect(Number(row.instant)).toBe(Date.parse('2024-02-29T23:59:59.999Z') / 1000);
    expect(row.json).toEqual({ code: 'a"b\\c', value: [1, 2] });
  });
});
