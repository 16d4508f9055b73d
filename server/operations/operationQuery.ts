import { errors } from '../fhir/fhirError';
import { dateRange } from '../search/dateRange';
import type { QueryParams } from '../search/searchRequest';
import { isKnownResourceType } from '../validation/fhirJsonSchema';

/** The last value of a query parameter, or undefined. */
export function queryValue(query: QueryParams, name: string): string | undefined {
  const raw = query[name];
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return value === undefined || value === '' ? undefined : value;
}

/** A whole number within bounds, or the fallback when absent; 400 naming the parameter otherwise. */
export function integerParameter(query: QueryParams, name: string, fallback: number, max: number): number {
  const value = queryValue(query, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw errors.invalid(`Invalid ${name}: "${value}" (expected a whole number from 0 to ${max})`, name);
  }
  return Number(value);
}

/** `_type=Observation,Condition`: checked resource type names (undefined when absent). */
export function typeListParameter(query: QueryParams, name = '_type'): string[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const types = (Array.isArray(raw) ? raw : [raw])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  for (const type of types) {
    if (!isKnownResourceType(type)) throw errors.invalid(`Unknown resource type "${type}" in ${name}`, name);
  }
  return types.length > 0 ? [...new Set(types)] : undefined;
}

/** `_since`: an instant (date and time with a zone, or a date); answered as an ISO string. */
export function instantParameter(query: QueryParams, name = '_since'): string | undefined {
  const value = queryValue(query, name);
  if (value === undefined) return undefined;
  const valid =
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) && !isNaN(Date.parse(value));
  if (!valid) {
    throw errors.invalid(`Invalid ${name}: "${value}" (expected an instant such as 2024-01-31T00:00:00Z)`, name);
  }
  return new Date(value).toISOString();
}

/** A FHIR date (`2024`, `2024-01`, `2024-01-31`) or dateTime, as given; 400 naming the parameter otherwise. */
export function dateParameter(query: QueryParams, name: string): string | undefined {
  const value = queryValue(query, name);
  if (value === undefined) return undefined;
  if (!dateRange(value)) {
    throw errors.invalid(`Invalid ${name}: "${value}" (expected a date such as 2024-01-31)`, name);
  }
  return value;
}
