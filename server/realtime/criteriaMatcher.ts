import type { Resource } from '@medplum/fhirtypes';
import { canPerform } from '../../data-provider/access';
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
  const answers = checks.map(() => false);
  const candidates: number[] = [];
  checks.forEach((check, index) => {
    if (check.criteria.resourceType !== resource.resourceType) return;
    // The type-level grant is plain policy data: no query needed to refuse.
    if (check.access && !check.access.superAdmin && !canPerform(check.access.policy, resource.resourceType, 'read')) {
      return;
    }
    candidates.push(index);
  });
  if (candidates.length === 0 || !resource.id) return answers;

  const current = await tx.query<{ version_id: string; deleted: boolean }>(
    'SELECT version_id, deleted FROM resources WHERE resource_type = $1 AND id = $2',
    [resource.resourceType, resource.id],
  );
  const stored = current[0] && !current[0].deleted && current[0].version_id === resource.meta?.versionId;
  if (!stored) {
    await tx.query('SAVEPOINT hearth_criteria_match');
    try {
      await stage(tx, registry, resource);
      await answerChecks(tx, resource, checks, candidates, answers);
    } finally {
      await tx.query('ROLLBACK TO SAVEPOINT hearth_criteria_match');
      await tx.query('RELEASE SAVEPOINT hearth_criteria_match');
    }
  } else {
    await answerChecks(tx, resource, checks, candidates, answers);
  }
  return answers;
}

async function answerChecks(
  tx: SqlExecutor,
  resource: Resource,
  checks: readonly CriteriaCheck[],
  candidates: readonly number[],
  answers: boolean[],
): Promise<void> {
  for (let start = 0; start < candidates.length; start += checksPerStatement) {
    const group = candidates.slice(start, start + checksPerStatement);
    const params = new SqlParams();
    const columns = group.map((index, position) => {
      const { criteria, access } = checks[index];
      const scope: SearchScope = access?.scope ?? {};
      return `(${buildWhere(criteria.request, params, scope)}) AS m${position}`;
    });
    const rows = await tx.query<Record<string, boolean>>(
      `SELECT ${columns.join(', ')} FROM resources r WHERE r.resource_type = ${params.add(resource.resourceType)} AND r.id = ${params.add(resource.id)}`,
      params.values,
    );
    const row = rows[0];
    if (!row) continue;
    group.forEach((index, position) => {
      answers[index] = row[`m${position}`] === true;
    });
  }
}

/** Puts `resource` in place as the current version with its index rows (inside the caller's savepoint). */
async function stage(tx: SqlExecutor, registry: SearchParameterRegistry, resource: Resource): Promise<void> {
  const rows = extractIndexRows(
    resource as unknown as Record<string, unknown>,
    registry.forType(resource.resourceType),
    (url) => registry.typeOfUrl(url),
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
 * refuse throw its 400.
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
