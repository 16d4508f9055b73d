import type { Resource } from '@medplum/fhirtypes';
import type { AccessGuard } from '../auth/accessGuard';
import { errors, FhirError } from '../fhir/fhirError';
import { queryFromString } from '../fhir/fhirOperations';
import { patientCompartments } from '../fhir/patientCompartment';
import type { CommittedWrite, RepositorySession } from '../fhir/repository';
import { deleteIndexRows, insertIndexRows } from '../fhir/writeFlush';
import { extractIndexRows } from '../search/indexRows';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { parseSearchRequest, type SearchRequest } from '../search/searchRequest';
import { buildWhere, SqlParams, type SearchScope } from '../search/searchSql';
import type { SqlExecutor } from '../storage/database';

/** A criteria string split into its type and its parsed search (filters only matter here). */
export interface ParsedCriteria {
  resourceType: string;
  request: SearchRequest;
}

/**
 * Parses `Type?param=value&…` with the REST API's search parser; a criteria that the API would
 * refuse throws the same 400 (so a Subscription with bad criteria is refused when it is written).
 */
export function parseCriteria(criteria: string, registry: SearchParameterRegistry): ParsedCriteria {
  const question = criteria.indexOf('?');
  const resourceType = (question >= 0 ? criteria.slice(0, question) : criteria).trim();
  if (!/^[A-Z][A-Za-z]+$/.test(resourceType)) {
    throw errors.invalid(`Invalid criteria "${criteria}": expected ResourceType?param=value`, 'criteria');
  }
  const query = queryFromString(question >= 0 ? criteria.slice(question + 1) : '');
  try {
    return { resourceType, request: parseSearchRequest(resourceType, query, registry) };
  } catch (error) {
    if (error instanceof FhirError) {
      throw errors.invalid(`Invalid criteria "${criteria}": ${error.message}`, 'criteria');
    }
    throw error;
  }
}

/**
 * Throws the REST API's 403 when `access` may not ask `criteria` as a search: the type's search
 * interaction (policy and SMART scopes: a `.r` scope reads by id, only `.s` discovers), and no
 * filter, chain or `_has` through a field the policy hides. A notification answers "does this
 * resource match?" just as a search does, so criteria the search API refuses would be an oracle
 * for the hidden value, or a way to discover resources the token may not search for.
 */
export function checkCriteriaAccess(criteria: ParsedCriteria, access: AccessGuard): void {
  access.checkInteraction(criteria.resourceType, 'search');
  access.checkSearch(criteria.request);
}

/** One question for `evaluateCriteria`: does the resource match `criteria` as seen by `access`? */
export interface CriteriaCheck {
  criteria: ParsedCriteria;
  /** The subscriber's guard; undefined evaluates as the server itself (no access restriction). */
  access?: AccessGuard;
}

/** Checks are sent to the database in groups of this many boolean columns per statement. */
const checksPerStatement = 100;

/**
 * Answers every check for one resource version, with the REST API's search SQL. Create and update
 * versions that are still current are evaluated on their stored index rows; any other version (the
 * content a delete removed, or a version since replaced) is put in place inside a savepoint,
 * evaluated exactly like a stored one, and rolled back, so chains, `_has`, compartments and policy
 * criteria behave as they would in a search.
 */
export async function evaluateCriteria(
  tx: SqlExecutor,
  registry: SearchParameterRegistry,
  resource: Resource,
  checks: readonly CriteriaCheck[],
): Promise<boolean[]> {
  return (await evaluateCriteriaBatch(tx, registry, [resource], checks))[0];
}

/**
 * `evaluateCriteria` for many versions at once: `answers[v][c]` says whether version `v` matches
 * check `c`. Current versions of one type share one statement per group of checks (the planning
 * cost is paid once for a whole round of writes); other versions are staged one by one.
 */
export async function evaluateCriteriaBatch(
  tx: SqlExecutor,
  registry: SearchParameterRegistry,
  resources: readonly Resource[],
  checks: readonly CriteriaCheck[],
): Promise<boolean[][]> {
  const answers = resources.map(() => checks.map(() => false));
  const byType = new Map<string, number[]>();
  resources.forEach((resource, index) => {
    if (!resource.id) return;
    const list = byType.get(resource.resourceType) ?? [];
    list.push(index);
    byType.set(resource.resourceType, list);
  });
  for (const [resourceType, indexes] of byType) {
    const candidates = checksFor(resourceType, checks);
    if (candidates.length === 0) continue;
    const ids = [...new Set(indexes.map((index) => resources[index].id as string))];
    const rows = await tx.query<{ id: string; version_id: string }>(
      'SELECT id, version_id FROM resources WHERE resource_type = $1 AND id = ANY($2::text[]) AND NOT deleted',
      [resourceType, ids],
    );
    const currentVersion = new Map(rows.map((row) => [row.id, row.version_id]));
    const stored = indexes.filter(
      (index) => currentVersion.get(resources[index].id as string) === resources[index].meta?.versionId,
    );
    const stale = indexes.filter((index) => !stored.includes(index));
    await answerChecks(
      tx,
      resourceType,
      stored.map((index) => ({ index, id: resources[index].id as string })),
      checks,
      candidates,
      answers,
    );
    for (const index of stale) {
      await tx.query('SAVEPOINT hearth_criteria_match');
      try {
        await stage(tx, registry, resources[index]);
        await answerChecks(
          tx,
          resourceType,
          [{ index, id: resources[index].id as string }],
          checks,
          candidates,
          answers,
        );
      } finally {
        await tx.query('ROLLBACK TO SAVEPOINT hearth_criteria_match');
        await tx.query('RELEASE SAVEPOINT hearth_criteria_match');
      }
    }
  }
  return answers;
}

/**
 * The checks that can match a resource of the type at all. A check its subscriber may not ask as a
 * search matches nothing; judged again on every call, because the subscriber's policy may have
 * changed (hiding a field, say) since its Subscription was bound.
 */
function checksFor(resourceType: string, checks: readonly CriteriaCheck[]): number[] {
  const candidates: number[] = [];
  checks.forEach((check, index) => {
    if (check.criteria.resourceType !== resourceType) return;
    if (check.access && !mayAsk(check.criteria, check.access)) return;
    candidates.push(index);
  });
  return candidates;
}

/** `checkCriteriaAccess` as a boolean (plain policy data: no query needed to refuse). */
function mayAsk(criteria: ParsedCriteria, access: AccessGuard): boolean {
  try {
    checkCriteriaAccess(criteria, access);
    return true;
  } catch (error) {
    if (error instanceof FhirError) return false;
    throw error;
  }
}

async function answerChecks(
  tx: SqlExecutor,
  resourceType: string,
  targets: readonly { index: number; id: string }[],
  checks: readonly CriteriaCheck[],
  candidates: readonly number[],
  answers: boolean[][],
): Promise<void> {
  if (targets.length === 0) return;
  const ids = [...new Set(targets.map((target) => target.id))];
  for (let start = 0; start < candidates.length; start += checksPerStatement) {
    const group = candidates.slice(start, start + checksPerStatement);
    const params = new SqlParams();
    const columns = group.map((index, position) => {
      const { criteria, access } = checks[index];
      const scope: SearchScope = access?.scope ?? {};
      return `(${buildWhere(criteria.request, params, scope)}) AS m${position}`;
    });
    const rows = await tx.query<Record<string, unknown>>(
      `SELECT r.id AS matched_id, ${columns.join(', ')} FROM resources r
       WHERE r.resource_type = ${params.add(resourceType)} AND r.id = ANY(${params.add(ids)}::text[])`,
      params.values,
    );
    const byId = new Map(rows.map((row) => [row.matched_id as string, row]));
    for (const target of targets) {
      const row = byId.get(target.id);
      if (!row) continue;
      group.forEach((index, position) => {
        answers[target.index][index] = row[`m${position}`] === true;
      });
    }
  }
}

/** Puts `resource` in place as the current version with its index rows (inside the caller's savepoint). */
async function stage(tx: SqlExecutor, registry: SearchParameterRegistry, resource: Resource): Promise<void> {
  // Indexed as the repository indexes it: with the parameters of the resource's own project.
  const parameters = registry.forProject(resource.meta?.project);
  const rows = extractIndexRows(
    resource as unknown as Record<string, unknown>,
    parameters.forType(resource.resourceType),
    (url) => parameters.typeOfUrl(url),
  );
  const id = resource.id as string;
  const compartments = patientCompartments(resource.resourceType, id, rows.reference);
  await tx.query(
    `INSERT INTO resources (resource_type, id, version_id, project_id, last_updated, deleted, compartments, content)
     VALUES ($1, $2, $3, $4, $5, false, $6::text[], $7::jsonb)
     ON CONFLICT (resource_type, id) DO UPDATE SET
       version_id = EXCLUDED.version_id, project_id = EXCLUDED.project_id, last_updated = EXCLUDED.last_updated,
       deleted = false, compartments = EXCLUDED.compartments, content = EXCLUDED.content`,
    [
      resource.resourceType,
      id,
      resource.meta?.versionId ?? 'staged',
      resource.meta?.project ?? null,
      resource.meta?.lastUpdated ?? new Date().toISOString(),
      compartments,
      JSON.stringify(resource),
    ],
  );
  const key = { resourceType: resource.resourceType, id };
  await deleteIndexRows(tx, [key]);
  await insertIndexRows(tx, [{ ...key, rows }]);
}

/**
 * Does `resource` match the FHIR search `criteria` (`Type?param=value&…`), evaluated with the REST
 * API's search code under the session's access guard? For a delete, pass the content the resource
 * had before (`CommittedWrite.previous`; `matchesWrite` does that). Criteria the search API would
 * refuse throw its 400; criteria the session's access may not ask as a search match nothing.
 */
export async function matchesCriteria(
  session: RepositorySession,
  criteria: string,
  resource: Resource,
): Promise<boolean> {
  const parsed = parseCriteria(criteria, session.registry);
  // Pending writes of the session must be visible to the evaluation, as they are to its searches.
  await session.flush();
  const [answer] = await evaluateCriteria(session.tx, session.registry, resource, [
    { criteria: parsed, access: session.access },
  ]);
  return answer;
}

/** The version a committed write is judged by: the new content, or for a delete what it removed. */
export function contentOfWrite(write: CommittedWrite): Resource | undefined {
  return write.operation === 'delete' ? write.previous : write.resource;
}

/** `matchesCriteria` for a committed write (create, update or delete). */
export async function matchesWrite(
  session: RepositorySession,
  criteria: string,
  write: CommittedWrite,
): Promise<boolean> {
  const content = contentOfWrite(write);
  return content ? matchesCriteria(session, criteria, content) : false;
}
