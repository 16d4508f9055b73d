/**
 * The PostgreSQL settings the server's connections start with, given as the startup `options`
 * (`-c name=value`) of each pool's connections.
 *
 * `max_parallel_workers_per_gather = 0`: no parallel plans. The server's searches read a page of
 * 20–100 rows; the planner's default charge for starting parallel workers (`parallel_setup_cost`
 * 1000) is far below what it costs on the virtual machines this runs on. At 1M resources
 * `Observation?code=…&_count=20` took 46–59 ms at the median with a parallel plan and 1.2–3.9 ms
 * without, `_total=estimate` on it 67 against 7 ms, and even the count of `_total=accurate` over
 * 103,443 matches 1,859 against 752 ms (docs/performance.md, "Eighth pass"). Many clinicians'
 * requests at once also share the cores better one backend each.
 */
export const serverSessionSettings: Readonly<Record<string, string>> = {
  max_parallel_workers_per_gather: '0',
};

/**
 * `statement_timeout` for the request connections (DATABASE_STATEMENT_TIMEOUT_MS): a search whose
 * cost grows with the rows it matches (`_total=accurate` over a large type, a deep `_offset`,
 * `:contains`) would otherwise hold a backend for minutes, and a few of them every backend of the
 * server. The database cancels the statement (statementTimeoutError.ts answers it); maintenance that
 * may legitimately run long lifts it (liftStatementTimeout.ts, `Database.exec`). 0 sets nothing, so
 * the database's or role's own setting, if any, applies; a URL's `-c statement_timeout=…` wins.
 */
export function statementTimeoutSettings(milliseconds: number): Readonly<Record<string, string>> {
  return milliseconds > 0 ? { statement_timeout: String(milliseconds) } : {};
}

/** A connection string and the startup options for node-postgres's pool config. */
export interface ConnectionConfig {
  connectionString: string;
  options: string;
}

/**
 * The pool config for `settings` on the database at `connectionString`. node-postgres lets an
 * `options` parameter in the URL replace the config's, so a URL's own options are moved into the
 * config, after the server's: the operator's `?options=-c …` still applies, and wins for a setting
 * both name. A connection string that is not a URL (or has no options) is passed on unchanged.
 */
export function connectionConfig(
  connectionString: string,
  settings: Readonly<Record<string, string>>,
): ConnectionConfig {
  const ours = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return { connectionString, options: ours };
  }
  const theirs = url.searchParams.get('options');
  if (theirs === null) return { connectionString, options: ours };
  url.searchParams.delete('options');
  return { connectionString: url.toString(), options: `${ours} ${theirs}` };
}
