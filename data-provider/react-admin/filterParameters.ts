import { formatFilter } from '../search/formatSearchQuery';
import { Operator } from '../search/searchOperator';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { invalidRequest, toHttpError } from './httpErrors';

/**
 * react-admin's `filter` object → FHIR search query pairs.
 *
 * - `{ gender: 'female' }` → `gender=female`; numbers and booleans as text.
 * - `{ 'name:contains': 'ev' }`, `{ 'subject:Patient': '1' }`, `{ 'subject.name': 'x' }`: the key
 *   is the search parameter as FHIR writes it (modifiers, chains, `_has`) and is sent as it is.
 * - `{ status: ['active', 'draft'] }` → `status=active,draft` (any of).
 * - `{ birthdate: { operator: 'ge', value: '1990' } }`: a filter of our search model
 *   (data-provider/search), prefix or modifier; an array of those repeats the parameter (all of),
 *   e.g. a date range.
 * - `{ q: 'eve' }`: the free-text box; sent as the type's text parameter (`name` for people and
 *   places, otherwise `_content`, which a server without full-text search refuses clearly).
 * - `{ id: [...] }` / `{ ids: [...] }` → `_id=a,b`.
 * Empty values (undefined, null, '', []) are left out: react-admin keeps cleared inputs as such.
 */
export type FilterValue = string | number | boolean | null | undefined | readonly (string | number)[] | ModelFilter;

export interface ModelFilter {
  operator: Operator | `${Operator}`;
  value: string | number;
  /** For the `type` operator: the resource type the reference must point to. */
  targetType?: string;
}

/** The types whose free-text box searches `name`. */
const nameSearchTypes = new Set([
  'Patient',
  'Practitioner',
  'RelatedPerson',
  'Person',
  'Organization',
  'Location',
  'HealthcareService',
  'Group',
  'Endpoint',
  'InsurancePlan',
  'OrganizationAffiliation',
  'CareTeam',
  'Device',
  'ValueSet',
  'CodeSystem',
  'StructureDefinition',
  'SearchParameter',
  'Questionnaire',
  'PlanDefinition',
  'ActivityDefinition',
  'Library',
  'Bot',
  'ClientApplication',
  'AccessPolicy',
  'Project',
]);

export type TextSearchParameter = (resourceType: string) => string;

export const defaultTextSearchParameter: TextSearchParameter = (resourceType) =>
  nameSearchTypes.has(resourceType) ? 'name' : '_content';

const operators = new Set<string>(Object.values(Operator));

function isModelFilter(value: unknown): value is ModelFilter {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'operator' in value;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function modelPair(code: string, filter: ModelFilter): [string, string] {
  if (!operators.has(filter.operator)) {
    throw invalidRequest(`Unknown search operator "${filter.operator}" in the filter on "${code}"`, code);
  }
  try {
    return formatFilter({
      code,
      operator: filter.operator as Operator,
      value: String(filter.value),
      targetType: filter.targetType,
    });
  } catch (error) {
    // The search model's refusals (a type filter without its type) as the providers' errors.
    if (error instanceof OperationOutcomeError) throw toHttpError(error);
    throw error;
  }
}

function primitive(code: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw invalidRequest(`The filter on "${code}" has a value that is not text, a number or a list`, code);
}

function escapeValue(value: string): string {
  return value.replace(/[\\,]/g, (character) => `\\${character}`);
}

export function filterPairs(
  resourceType: string,
  filter: Record<string, unknown> | undefined,
  textSearchParameter: TextSearchParameter = defaultTextSearchParameter,
): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (isEmpty(value)) continue;
    const code = key === 'q' ? textSearchParameter(resourceType) : key === 'id' || key === 'ids' ? '_id' : key;
    if (isModelFilter(value)) {
      pairs.push(modelPair(code, value));
    } else if (Array.isArray(value) && value.some(isModelFilter)) {
      for (const one of value) {
        if (!isModelFilter(one)) throw invalidRequest(`The filter on "${code}" mixes operators and plain values`, code);
        pairs.push(modelPair(code, one));
      }
    } else if (Array.isArray(value)) {
      // Each value's own commas (and backslashes) are escaped so that only the separators split.
      pairs.push([code, value.map((one) => escapeValue(primitive(code, one))).join(',')]);
    } else {
      pairs.push([code, primitive(code, value)]);
    }
  }
  return pairs;
}
