import { describe, expect, it } from 'vitest';
import { splitStatements } from './migrations';

describe('splitStatements', () => {
  it('splits at semicolons and drops empty statements', () => {
    expect(splitStatements('CREATE TABLE a (x int);\n  CREATE INDEX b ON a (x);\n;  ')).toEqual([
      'CREATE TABLE a (x int)',
      'CREATE INDEX b ON a (x)',
    ]);
  });

  it('keeps a dollar-quoted block whole, semicolons and all', () => {
    const block = `DO $$
    BEGIN
      ALTER TABLE a ALTER COLUMN x SET COMPRESSION lz4;
    EXCEPTION WHEN feature_not_supported THEN
      NULL;
    END
    $$`;
    expect(splitStatements(`${block};\nANALYZE a;`)).toEqual([block, 'ANALYZE a']);
  });
});
