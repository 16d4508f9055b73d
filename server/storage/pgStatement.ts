import type pg from 'pg';
import type { QueryOptions } from './database';

/** node-postgres's query config for a statement: named (prepared once per connection) when `prepareAs` is given. */
export function pgStatement(
  sql: string,
  params: unknown[] | undefined,
  options: QueryOptions | undefined,
): pg.QueryConfig {
  return { text: sql, values: params, name: options?.prepareAs };
}
