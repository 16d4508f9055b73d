import type { SearchFilter, SearchRequest, ValueFilter } from './searchRequest';

/**
 * The relative form (`Patient/1`) of a reference naming this server's FHIR base absolutely, or
 * undefined for any other text (server/fhir/serverAddress.ts's `ServerAddress.localForm`).
 */
export type LocalFormOf = (reference: string) => string | undefined;

/**
 * `request` with each reference search value that names this server's FHIR base absolutely
 * (`Observation?subject=https://{this server}/fhir/R4/Patient/1`) in its relative form.
 *
 * Such a reference is stored in that form (serverAddress.ts), and an absolute URL is searched for
 * by its whole text (absoluteReference.ts): without this, the search would look for a text no
 * stored reference of this server has. FHIR counts the two spellings as one reference.
 * Returns `request` itself when no value changes.
 */
export function withLocalReferenceValues(request: SearchRequest, localFormOf: LocalFormOf): SearchRequest {
  let changed = false;
  const filters = request.filters.map((filter) => {
    const next = localFilter(filter, localFormOf);
    if (next !== filter) changed = true;
    return next;
  });
  return changed ? { ...request, filters } : request;
}

function localFilter(filter: SearchFilter, localFormOf: LocalFormOf): SearchFilter {
  if (filter.kind === 'value') return localValues(filter, localFormOf);
  // A chain's or _has's own reference is followed through the index; its inner filter has values.
  const inner = localValues(filter.filter, localFormOf);
  return inner === filter.filter ? filter : { ...filter, filter: inner };
}

function localValues(filter: ValueFilter, localFormOf: LocalFormOf): ValueFilter {
  if (typeof filter.parameter === 'string' || filter.parameter.type !== 'reference') return filter;
  if (filter.modifier === 'missing') return filter;
  let changed = false;
  const values = filter.values.map((value) => {
    const local = localFormOf(value);
    if (local === undefined) return value;
    changed = true;
    return local;
  });
  return changed ? { ...filter, values } : filter;
}
