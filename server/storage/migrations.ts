import type { Database } from './database';
import { liftStatementTimeout } from './liftStatementTimeout';

/**
 * Ordered, append-only list of schema migrations. Both backends run exactly this SQL.
 * docs/storage.md explains the table design.
 */
const migrations: readonly string[] = [
  `
  CREATE TABLE resources (
    resource_type text NOT NULL,
    id text NOT NULL,
    version_id text NOT NULL,
    project_id text,
    last_updated timestamptz NOT NULL,
    deleted boolean NOT NULL DEFAULT false,
    compartments text[] NOT NULL DEFAULT '{}',
    content jsonb NOT NULL,
    PRIMARY KEY (resource_type, id)
  );
  CREATE INDEX resources_type_updated_idx ON resources (resource_type, last_updated DESC) WHERE NOT deleted;
  CREATE INDEX resources_project_idx ON resources (project_id, resource_type);
  CREATE INDEX resources_compartments_idx ON resources USING gin (compartments);

  CREATE TABLE resource_history (
    version_id text PRIMARY KEY,
    resource_type text NOT NULL,
    id text NOT NULL,
    project_id text,
    last_updated timestamptz NOT NULL,
    operation text NOT NULL CHECK (operation IN ('create', 'update', 'delete')),
    content jsonb NOT NULL
  );
  CREATE INDEX history_instance_idx ON resource_history (resource_type, id, last_updated DESC);
  CREATE INDEX history_type_idx ON resource_history (resource_type, last_updated DESC);
  CREATE INDEX history_system_idx ON resource_history (last_updated DESC);

  CREATE TABLE search_token (
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    code text NOT NULL,
    system text,
    value text,
    display text
  );
  CREATE INDEX search_token_value_idx ON search_token (resource_type, code, value, system);
  CREATE INDEX search_token_resource_idx ON search_token (resource_type, resource_id);

  CREATE TABLE search_string (
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    code text NOT NULL,
    value text NOT NULL,
    normalized text NOT NULL
  );
  CREATE INDEX search_string_value_idx ON search_string (resource_type, code, normalized text_pattern_ops);
  CREATE INDEX search_string_resource_idx ON search_string (resource_type, resource_id);

  CREATE TABLE search_date (
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    code text NOT NULL,
    low timestamptz,
    high timestamptz
  );
  CREATE INDEX search_date_range_idx ON search_date (resource_type, code, low, high);
  CREATE INDEX search_date_resource_idx ON search_date (resource_type, resource_id);

  CREATE TABLE search_number (
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    code text NOT NULL,
    value numeric NOT NULL
  );
  CREATE INDEX search_number_value_idx ON search_number (resource_type, code, value);
  CREATE INDEX search_number_resource_idx ON search_number (resource_type, resource_id);

  CREATE TABLE search_quantity (
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    code text NOT NULL,
    value numeric NOT NULL,
    system text,
    unit_code text
  );
  CREATE INDEX search_quantity_value_idx ON search_quantity (resource_type, code, value);
  CREATE INDEX search_quantity_resource_idx ON search_quantity (resource_type, resource_id);

  CREATE TABLE search_reference (
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    code text NOT NULL,
    target_type text,
    target_id text,
    reference text NOT NULL
  );
  CREATE INDEX search_reference_target_idx ON search_reference (resource_type, code, target_id, target_type);
  CREATE INDEX search_reference_reverse_idx ON search_reference (target_type, target_id, resource_type);
  CREATE INDEX search_reference_resource_idx ON search_reference (resource_type, resource_id);

  CREATE TABLE search_uri (
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    code text NOT NULL,
    value text NOT NULL
  );
  CREATE INDEX search_uri_value_idx ON search_uri (resource_type, code, value);
  CREATE INDEX search_uri_resource_idx ON search_uri (resource_type, resource_id);

  CREATE TABLE server_state (
    key text PRIMARY KEY,
    value jsonb NOT NULL
  );
  `,
  `
  CREATE TABLE search_composite (
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    code text NOT NULL,
    components jsonb NOT NULL
  );
  CREATE INDEX search_composite_code_idx ON search_composite (resource_type, code);
  CREATE INDEX search_composite_resource_idx ON search_composite (resource_type, resource_id);
  `,
  `
  DROP INDEX resources_type_updated_idx;
  CREATE INDEX resources_type_updated_idx ON resources (resource_type, last_updated DESC, id DESC) WHERE NOT deleted;
  `,
  `
  CREATE EXTENSION IF NOT EXISTS btree_gist;
  CREATE INDEX IF NOT EXISTS search_date_span_idx ON search_date USING gist (resource_type, code, tstzrange(low, high, '[]'));
  `,
  `
  CREATE TABLE auth_throttle (
    key text PRIMARY KEY,
    failures integer NOT NULL,
    first_failure timestamptz NOT NULL,
    locked_until timestamptz
  );
  CREATE TABLE auth_pending (
    id text PRIMARY KEY,
    value jsonb NOT NULL,
    expires timestamptz NOT NULL
  );
  `,
  `
  CREATE TABLE fhircast_topics (
    project_id text NOT NULL,
    topic text NOT NULL,
    state jsonb NOT NULL,
    updated timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, topic)
  );
  CREATE TABLE fhircast_subscriptions (
    id text PRIMARY KEY,
    project_id text NOT NULL,
    topic text NOT NULL,
    events text[] NOT NULL,
    login_id text NOT NULL,
    created timestamptz NOT NULL DEFAULT now(),
    ended timestamptz
  );
  CREATE TABLE fhircast_events (
    id bigserial PRIMARY KEY,
    project_id text NOT NULL,
    topic text NOT NULL,
    envelope jsonb NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX fhircast_events_created_idx ON fhircast_events (created);
  `,
  `
  CREATE TABLE user_key_values (
    owner text NOT NULL,
    key text NOT NULL,
    value text NOT NULL,
    updated timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner, key)
  );
  CREATE TABLE bulk_export_jobs (
    id text PRIMARY KEY,
    project_id text NOT NULL,
    login_id text NOT NULL,
    status text NOT NULL CHECK (status IN ('active', 'completed', 'error', 'cancelled')),
    request_url text NOT NULL,
    transaction_time timestamptz NOT NULL,
    progress text,
    output jsonb NOT NULL DEFAULT '[]',
    error text,
    created timestamptz NOT NULL DEFAULT now(),
    updated timestamptz NOT NULL DEFAULT now()
  );
  `,
  // Index a bounded prefix of free-text values: a b-tree entry above ~2.7 kB is refused, so one long
  // value used to fail its whole write. Searches compare the prefix in the index and then the full
  // value (server/search/indexedPrefix.ts); the limits keep an entry under 2.2 kB in any encoding.
  `
  DROP INDEX search_token_value_idx;
  CREATE INDEX search_token_value_idx ON search_token (resource_type, code, left(value, 256), left(system, 256));
  DROP INDEX search_string_value_idx;
  CREATE INDEX search_string_value_idx ON search_string (resource_type, code, left(normalized, 512) text_pattern_ops);
  DROP INDEX search_uri_value_idx;
  CREATE INDEX search_uri_value_idx ON search_uri (resource_type, code, left(value, 512));
  ANALYZE search_token;
  ANALYZE search_string;
  ANALYZE search_uri;
  `,
  // Resource JSON is compressed with lz4 rather than pglz: for the ~2–5 kB of a typical resource
  // (stored twice, current row and history) pglz was about a sixth of PostgreSQL's CPU per write,
  // and every read by id decompresses it (issue 20, docs/performance.md). Values already stored keep
  // pglz until rewritten. PGlite is built without lz4 (feature_not_supported): it keeps pglz.
  `
  DO $$
  BEGIN
    ALTER TABLE resources ALTER COLUMN content SET COMPRESSION lz4;
    ALTER TABLE resource_history ALTER COLUMN content SET COMPRESSION lz4;
  EXCEPTION WHEN feature_not_supported THEN
    NULL;
  END
  $$;
  `,
  // Each index table's "rows of this resource" index is a hash on resource_id instead of a b-tree on
  // (resource_type, resource_id). It serves equality only (deleting a resource's rows on update or
  // delete, the per-resource semi-joins of searches), and on random UUIDs a b-tree insert lands on a
  // random page and compares two texts at every level: the hash insert cost about a third as much per
  // index row (issue 20, docs/performance.md). resource_type is checked on the heap row.
  `
  DROP INDEX search_token_resource_idx;
  CREATE INDEX search_token_resource_idx ON search_token USING hash (resource_id);
  DROP INDEX search_string_resource_idx;
  CREATE INDEX search_string_resource_idx ON search_string USING hash (resource_id);
  DROP INDEX search_date_resource_idx;
  CREATE INDEX search_date_resource_idx ON search_date USING hash (resource_id);
  DROP INDEX search_number_resource_idx;
  CREATE INDEX search_number_resource_idx ON search_number USING hash (resource_id);
  DROP INDEX search_quantity_resource_idx;
  CREATE INDEX search_quantity_resource_idx ON search_quantity USING hash (resource_id);
  DROP INDEX search_reference_resource_idx;
  CREATE INDEX search_reference_resource_idx ON search_reference USING hash (resource_id);
  DROP INDEX search_uri_resource_idx;
  CREATE INDEX search_uri_resource_idx ON search_uri USING hash (resource_id);
  DROP INDEX search_composite_resource_idx;
  CREATE INDEX search_composite_resource_idx ON search_composite USING hash (resource_id);
  `,
  // Each accepted two-factor code's time step, once per account (RFC 6238 §5.2): a code seen
  // over a shoulder or relayed by a phishing page cannot be used again (server/auth/totpReplay.ts).
  `
  CREATE TABLE mfa_used_steps (
    user_id text NOT NULL,
    step bigint NOT NULL,
    used_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, step)
  );
  `,
  // The GiST range index holds only the date rows that span more than a day or have an open end:
  // the others (~99 %) are found through the b-tree on (resource_type, code, low, high) by a bounded
  // scan (server/search/dateOverlap.ts, whose longDateSpan is this predicate). A GiST insert was the
  // most expensive index write of an import (issue 20, docs/performance.md).
  `
  DROP INDEX search_date_span_idx;
  CREATE INDEX search_date_span_idx ON search_date USING gist (resource_type, code, tstzrange(low, high, '[]'))
    WHERE (low IS NULL OR high IS NULL OR high - low > interval '1 day');
  `,
  // One b-tree for a reference row's target instead of two: every search by a reference names the
  // target's id (a forward search names the type and code too, a reverse one — _has, _revinclude,
  // a compartment — the type), so the id leads. Rows without a target (a canonical URL, urn:uuid:…)
  // are found by their text through a hash index of their own; searchSql.ts says which applies
  // (indexRows.ts's indexedReferenceTarget). A target id is a random UUID: each b-tree insert landed
  // on a random page, and the second one was ~a third of the reference rows' cost (issue 20).
  `
  DROP INDEX search_reference_target_idx;
  DROP INDEX search_reference_reverse_idx;
  CREATE INDEX search_reference_target_idx ON search_reference (target_id, target_type, resource_type, code);
  CREATE INDEX search_reference_text_idx ON search_reference USING hash (reference) WHERE target_id IS NULL;
  `,
  // Each export kick-off counts the active jobs of its login and of its project, and a sweep finds
  // the jobs past their retention (server/operations/export/exportRetention.ts): without indexes
  // each was a scan of every job ever kept.
  `
  CREATE INDEX bulk_export_jobs_login_idx ON bulk_export_jobs (login_id, status);
  CREATE INDEX bulk_export_jobs_project_idx ON bulk_export_jobs (project_id, status);
  CREATE INDEX bulk_export_jobs_updated_idx ON bulk_export_jobs (updated);
  `,
  // FHIRcast's subscribe counts the open subscriptions of its login and of its topic, and the
  // sweep asks each idle topic whether anyone still follows it (server/fhircast/fhircastStore.ts,
  // fhircastLimits.ts): without these each was a scan of every subscription kept.
  `
  CREATE INDEX fhircast_subscriptions_login_idx ON fhircast_subscriptions (login_id) WHERE ended IS NULL;
  CREATE INDEX fhircast_subscriptions_topic_idx ON fhircast_subscriptions (project_id, topic) WHERE ended IS NULL;
  `,
];

export async function migrate(db: Database): Promise<void> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  // Several server processes may start together on one native database: serialize migrations.
  await db.transaction(async (tx) => {
    // A CREATE INDEX over a filled table, or the wait for another process's migrations, takes minutes at 1M resources.
    await liftStatementTimeout(tx);
    if (db.kind === 'postgres') {
      await tx.query('SELECT pg_advisory_xact_lock(81030001)');
    }
    const applied = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(applied.map((row) => Number(row.version)));
    for (let index = 0; index < migrations.length; index++) {
      const version = index + 1;
      if (done.has(version)) continue;
      for (const statement of splitStatements(migrations[index])) {
        await tx.query(statement);
      }
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    }
  });
}

/** Splits at semicolons outside dollar-quoted bodies (`DO $$ … $$`), whose own statements stay whole. */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let inBody = false;
  for (let at = 0; at < sql.length; at++) {
    if (sql.startsWith('$$', at)) {
      inBody = !inBody;
      at++;
    } else if (sql[at] === ';' && !inBody) {
      statements.push(sql.slice(start, at));
      start = at + 1;
    }
  }
  statements.push(sql.slice(start));
  return statements.map((statement) => statement.trim()).filter((statement) => statement.length > 0);
}
