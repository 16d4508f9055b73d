import type { AccessPolicy, AccessPolicyResource } from '@medplum/fhirtypes';
import { entriesGranting } from '../../data-provider/access';
import { errors, FhirError } from '../fhir/fhirError';
import { queryFromString } from '../fhir/fhirOperations';
import { sharedRowVisible } from '../auth/sharedProjectVisibility';
import type { SearchParameterRegistry } from './searchParameterRegistry';
import { parseSearchRequest, type SearchFilter } from './searchRequest';
import { filtersClause, type SearchScope, type SqlParams } from './searchSql';

/** What a signed-in caller may see, in terms the SQL of a search can apply. */
export interface AccessRules {
  /** Projects whose resources the caller may see; undefined for super admins (everything). */
  projectIds?: string[];
  /** The shared definitions project: readable by everyone, whatever the policy says. */
  sharedProjectId: string;
  policy?: AccessPolicy;
  /**
   * Entries that must hold as well as the policy's (a token's SMART scopes): their clause is AND-ed
   * into every query, super admins included.
   */
  narrowing?: (resourceType: string) => AccessPolicyResource[];
}

/**
 * The search scope that enforces project isolation and an access policy's type, compartment and
 * criteria rules in every query (matches, chains, _has, includes), so that searches silently
 * return only what the caller may read.
 */
export function accessScope(rules: AccessRules, registry: SearchParameterRegistry): SearchScope {
  if (!rules.projectIds && !rules.policy && !rules.narrowing) return {};
  const scope: SearchScope = {
    visible(resourceType, alias, params) {
      const own: string[] = [];
      if (rules.projectIds) own.push(`${alias}.project_id = ANY(${params.add(rules.projectIds)}::text[])`);
      if (rules.policy) own.push(policyClause(rules.policy, resourceType, alias, params, registry));
      if (rules.narrowing) {
        own.push(policyClause(undefined, resourceType, alias, params, registry, rules.narrowing(resourceType)));
      }
      if (!sharedRowVisible(resourceType)) return `(${own.join(' AND ')})`;
      const shared = `${alias}.project_id = ${params.add(rules.sharedProjectId)}`;
      return `${shared} OR (${own.join(' AND ')})`;
    },
  };
  return scope;
}

/**
 * The OR of the policy's entries for the type ('FALSE' when none grants it). With `forWrite`, a
 * patient compartment holds only resources in that patient's compartment and no other patient's:
 * a patient may not write about someone else, nor create another Patient.
 */
export function policyClause(
  policy: AccessPolicy | undefined,
  resourceType: string,
  alias: string,
  params: SqlParams,
  registry: SearchParameterRegistry,
  // A search sees what the entries granting search allow (an entry listing only `create` shows nothing).
  entries: AccessPolicyResource[] = entriesGranting(policy, resourceType, 'search'),
  forWrite = false,
): string {
  if (entries.length === 0) return 'FALSE';
  const clauses = entries.map((entry) => entryClause(entry, resourceType, alias, params, registry, forWrite));
  if (clauses.includes('TRUE')) return 'TRUE';
  return clauses.map((clause) => `(${clause})`).join(' OR ');
}

function entryClause(
  entry: AccessPolicyResource,
  resourceType: string,
  alias: string,
  params: SqlParams,
  registry: SearchParameterRegistry,
  forWrite: boolean,
): string {
  const parts: string[] = [];
  const compartment = entry.compartment?.reference;
  if (compartment) parts.push(compartmentClause(compartment, alias, params, forWrite));
  if (entry.criteria) {
    // Criteria written for a wildcard entry apply to whichever type is searched.
    const filters = criteriaFilters(entry.criteria, resourceType, registry);
    // The criteria define visibility; their own chains are not subject to it.
    parts.push(`(${filtersClause(filters, params, alias, {})})`);
  }
  return parts.length > 0 ? parts.join(' AND ') : 'TRUE';
}

/** In the compartment of `reference`: the patient compartment index, or any reference to it. */
function compartmentClause(reference: string, alias: string, params: SqlParams, forWrite: boolean): string {
  const [type, id] = reference.split('/');
  if (type === 'Patient') {
    const own = `ARRAY[${params.add(reference)}]::text[]`;
    return forWrite
      ? `(${alias}.compartments && ${own} AND ${alias}.compartments <@ ${own})`
      : `${alias}.compartments && ${own}`;
  }
  const t = params.alias('c');
  return `((${alias}.resource_type = ${params.add(type)} AND ${alias}.id = ${params.add(id)}) OR EXISTS (
    SELECT 1 FROM search_reference ${t} WHERE ${t}.resource_type = ${alias}.resource_type AND ${t}.resource_id = ${alias}.id
      AND ${t}.target_type = ${params.add(type)} AND ${t}.target_id = ${params.add(id)}))`;
}

/** The filters of a policy criteria such as `Observation?status=final` (its type part may be `*` or omitted). */
export function criteriaFilters(
  criteria: string,
  resourceType: string,
  registry: SearchParameterRegistry,
): SearchFilter[] {
  const question = criteria.indexOf('?');
  const query = queryFromString(question >= 0 ? criteria.slice(question + 1) : criteria);
  try {
    return parseSearchRequest(resourceType, query, registry).filters;
  } catch (error) {
    if (error instanceof FhirError) {
      throw errors.invalid(
        `The access policy criteria "${criteria}" cannot be applied to ${resourceType}: ${error.message}`,
      );
    }
    throw error;
  }
}
