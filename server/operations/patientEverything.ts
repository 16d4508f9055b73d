import type { Bundle, BundleLink, Resource } from '@medplum/fhirtypes';
import { FhirError } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import type { QueryParams } from '../search/searchRequest';
import { SqlParams } from '../search/searchSql';
import { careDateCondition, type CareDateRange } from './everythingCareDates';
import { dateParameter, instantParameter, integerParameter, typeListParameter } from './operationQuery';

export const everythingDefaultCount = 1000;
export const everythingMaxCount = 1000;

/**
 * `Patient/{id}/$everything`: the patient and every current resource in its compartment that the
 * caller may read (the search scope of its access policy applies per type), as a paged searchset.
 * `_type`, `_since` (record updated) and `start`/`end` (care dates, everythingCareDates.ts) narrow it.
 * The patient comes first; the rest are ordered by type and id so that pages are stable.
 */
export async function patientEverything(
  session: RepositorySession,
  patientId: string,
  query: QueryParams,
  fhirBase: string,
): Promise<Bundle> {
  const count = integerParameter(query, '_count', everythingDefaultCount, everythingMaxCount);
  const offset = integerParameter(query, '_offset', 0, Number.MAX_SAFE_INTEGER);
  const since = instantParameter(query, '_since');
  const careDates: CareDateRange = { start: dateParameter(query, 'start'), end: dateParameter(query, 'end') };
  const requestedTypes = typeListParameter(query, '_type');
  // 404/410 when absent or of another project, 403 when the policy does not grant it.
  await session.read('Patient', patientId);
  const compartment = `Patient/${patientId}`;

  const present = await session.tx.query<{ resource_type: string }>(
    'SELECT DISTINCT resource_type FROM resources WHERE compartments && $1::text[] AND NOT deleted',
    [[compartment]],
  );
  const types = present
    .map((row) => row.resource_type)
    .filter((type) => !requestedTypes || requestedTypes.includes(type) || type === 'Patient')
    .filter((type) => readable(session, type))
    .sort();

  const params = new SqlParams();
  const where = [`r.compartments && ${params.add([compartment])}::text[]`, 'NOT r.deleted'];
  where.push(`r.resource_type = ANY(${params.add(types)}::text[])`);
  const filters: string[] = [];
  if (requestedTypes && !requestedTypes.includes('Patient')) filters.push(`r.resource_type <> 'Patient'`);
  if (since) filters.push(`r.last_updated >= ${params.add(since)}`);
  if (filters.length > 0) {
    // The patient itself is always in the answer, whatever _type and _since say.
    const patientRow = `(r.resource_type = 'Patient' AND r.id = ${params.add(patientId)})`;
    where.push(`(${patientRow} OR (${filters.join(' AND ')}))`);
  }
  const scope = session.access?.scope ?? {};
  // Per type: what the caller may see of it, and (start/end) whether its care date is in range.
  const perType = types.map((type) => {
    const conditions = [`r.resource_type = ${params.add(type)}`];
    if (scope.visible) conditions.push(`(${scope.visible(type, 'r', params)})`);
    const inRange =
      type === 'Patient' ? undefined : careDateCondition(type, careDates, session.registry, params, scope);
    if (inRange) conditions.push(`(${inRange})`);
    return conditions.length > 1 ? `(${conditions.join(' AND ')})` : undefined;
  });
  if (perType.some((condition) => condition !== undefined)) {
    const typeConditions = types.map((type, index) => perType[index] ?? `r.resource_type = ${params.add(type)}`);
    where.push(`(${typeConditions.join(' OR ') || 'FALSE'})`);
  }
  const whereSql = where.join(' AND ');
  const orderSql = `(r.resource_type = 'Patient' AND r.id = ${params.add(patientId)}) DESC, r.resource_type, r.id`;
  const limit = params.add(count + 1);
  const skip = params.add(offset);
  const rows =
    types.length === 0
      ? []
      : await session.tx.query<{ content: Resource }>(
          `SELECT r.content FROM resources r WHERE ${whereSql} ORDER BY ${orderSql} LIMIT ${limit} OFFSET ${skip}`,
          params.values,
        );
  const resources = rows
    .slice(0, count)
    .map((row) => (session.access ? session.access.redact(row.content) : row.content));
  const hasMore = rows.length > count;

  const url = (at: number) => {
    const search = new URLSearchParams();
    if (requestedTypes) search.set('_type', requestedTypes.join(','));
    if (since) search.set('_since', since);
    if (careDates.start) search.set('start', careDates.start);
    if (careDates.end) search.set('end', careDates.end);
    search.set('_count', String(count));
    search.set('_offset', String(at));
    return `${fhirBase}Patient/${patientId}/$everything?${search.toString()}`;
  };
  const link: BundleLink[] = [{ relation: 'self', url: url(offset) }];
  if (hasMore) link.push({ relation: 'next', url: url(offset + count) });
  if (offset > 0) link.push({ relation: 'previous', url: url(Math.max(0, offset - count)) });
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    link,
    entry: resources.map((resource) => ({
      fullUrl: `${fhirBase}${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: 'match' },
    })),
  };
}

/** Types the caller's policy lets it search (the per-row rules are applied in SQL). */
function readable(session: RepositorySession, resourceType: string): boolean {
  try {
    session.access?.checkInteraction(resourceType, 'search');
    return true;
  } catch (error) {
    if (error instanceof FhirError && error.status === 403) return false;
    throw error;
  }
}
