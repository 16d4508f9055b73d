import type { Resource } from '@medplum/fhirtypes';
import type { SqlExecutor } from '../storage/database';
import type { IncludeRule } from './searchRequest';
import { SqlParams, type SearchScope } from './searchSql';

/** How many rounds `:iterate` follows before it stops (guards against reference cycles). */
const maxIterations = 4;
const maxIncluded = 5000;

interface Key {
  resource_type: string;
  id: string;
}

const keyOf = (r: Resource) => `${r.resourceType}/${r.id}`;

/** The resources that `_include` and `_revinclude` add to a page of matches. */
export async function resolveIncludes(
  tx: SqlExecutor,
  matches: readonly Resource[],
  include: readonly IncludeRule[],
  revInclude: readonly IncludeRule[],
  scope: SearchScope,
): Promise<Resource[]> {
  if (matches.length === 0 || (include.length === 0 && revInclude.length === 0)) return [];
  const seen = new Set(matches.map(keyOf));
  const included: Resource[] = [];
  let frontier: readonly Resource[] = matches;
  for (let round = 0; round < maxIterations && frontier.length > 0 && included.length < maxIncluded; round++) {
    // The first round follows every rule from the matches; later rounds only the :iterate ones.
    const includeRules = include.filter((rule) => round === 0 || rule.iterate);
    const revRules = revInclude.filter((rule) => round === 0 || rule.iterate);
    if (includeRules.length === 0 && revRules.length === 0) break;
    // Every statement is limited to what may still be added: `_revinclude` rules each used to
    // bring up to the whole limit per round, and a forward include every reference of the page.
    const room = () => maxIncluded - included.length;
    const forward = await forwardIncludes(tx, frontier, includeRules, scope, room());
    const reverse = await reverseIncludes(tx, frontier, revRules, scope, room());
    const found = [...forward, ...reverse].filter((resource) => {
      const key = keyOf(resource);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const added = found.slice(0, room());
    included.push(...added);
    frontier = added;
  }
  return included.slice(0, maxIncluded);
}

async function forwardIncludes(
  tx: SqlExecutor,
  from: readonly Resource[],
  rules: readonly IncludeRule[],
  scope: SearchScope,
  limit: number,
): Promise<Resource[]> {
  const targets: Key[] = [];
  for (const rule of rules) {
    if (targets.length >= limit) break;
    const sources = from.filter((r) => r.resourceType === rule.sourceType).map((r) => r.id as string);
    if (sources.length === 0) continue;
    const rows = await tx.query<Key>(
      `SELECT DISTINCT target_type AS resource_type, target_id AS id FROM search_reference
       WHERE resource_type = $1 AND resource_id = ANY($2::text[]) AND code = $3 AND target_id IS NOT NULL
       ${rule.targetType ? 'AND target_type = $5' : ''} LIMIT $4`,
      rule.targetType
        ? [rule.sourceType, sources, rule.parameter.code, limit - targets.length, rule.targetType]
        : [rule.sourceType, sources, rule.parameter.code, limit - targets.length],
    );
    targets.push(...rows);
  }
  if (targets.length === 0) return [];
  const out: Resource[] = [];
  for (const type of new Set(targets.map((target) => target.resource_type))) {
    const params = new SqlParams();
    const keys = params.add(targets.filter((target) => target.resource_type === type).map((target) => target.id));
    const visible = scope.visible ? `AND (${scope.visible(type, 'r', params)})` : '';
    const rows = await tx.query<{ content: Resource }>(
      `SELECT r.content FROM resources r
       WHERE r.resource_type = ${params.add(type)} AND r.id = ANY(${keys}::text[]) AND NOT r.deleted ${visible}`,
      params.values,
    );
    out.push(...rows.map((row) => row.content));
  }
  return out;
}

async function reverseIncludes(
  tx: SqlExecutor,
  to: readonly Resource[],
  rules: readonly IncludeRule[],
  scope: SearchScope,
  limit: number,
): Promise<Resource[]> {
  const out: Resource[] = [];
  if (rules.length === 0 || limit <= 0) return out;
  const targets = JSON.stringify(to.map((r) => ({ resource_type: r.resourceType, id: r.id })));
  for (const rule of rules) {
    if (out.length >= limit) break;
    const params = new SqlParams();
    const sourceType = params.add(rule.sourceType);
    const code = params.add(rule.parameter.code);
    const keys = params.add(targets);
    const visible = scope.visible ? `AND (${scope.visible(rule.sourceType, 'r', params)})` : '';
    const rows = await tx.query<{ content: Resource }>(
      `SELECT r.content FROM resources r
       WHERE r.resource_type = ${sourceType} AND NOT r.deleted ${visible} AND EXISTS (
         SELECT 1 FROM search_reference s JOIN jsonb_to_recordset(${keys}::jsonb) AS k(resource_type text, id text)
           ON s.target_type = k.resource_type AND s.target_id = k.id
         WHERE s.resource_type = r.resource_type AND s.resource_id = r.id AND s.code = ${code})
       LIMIT ${params.add(limit - out.length)}`,
      params.values,
    );
    out.push(...rows.map((row) => row.content));
  }
  return out;
}
