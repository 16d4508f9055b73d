import type { HumanName, Identifier, Patient, ServiceRequest } from '@medplum/fhirtypes';
import { formatHumanName } from '../../data-provider/formatting';

/** At most this many suggestions (app-spec §9); each search asks for as many. */
export const GLOBAL_SEARCH_LIMIT = 5;
/** Typing pause before searching (app-spec §9). */
export const GLOBAL_SEARCH_DEBOUNCE_MS = 100;

/** A suggestion: a patient or a service request, with the fields the GraphQL query asks for. */
export type SearchHit = Pick<Patient, 'resourceType' | 'id' | 'identifier' | 'name' | 'birthDate'> | SearchRequestHit;
type SearchRequestHit = Pick<ServiceRequest, 'resourceType' | 'id' | 'identifier'> & {
  subject?: { display?: string };
};

// A UUID as the client layer's general check defines it (8-4-4-4-12 word characters).
const UUID_PATTERN = /^\w{8}-\w{4}-\w{4}-\w{4}-\w{12}$/;

/** Text that looks like a resource id is looked up by `_id` rather than by name or identifier. */
export function looksLikeId(text: string): boolean {
  return UUID_PATTERN.test(text.trim());
}

const patientFields = 'resourceType id identifier { system value } name { given family text } birthDate';
const serviceRequestFields = 'resourceType id identifier { system value } subject { display }';

/** The GraphQL query of app-spec §7 for the text, with its variables. */
export function globalSearchQuery(text: string): { query: string; variables: Record<string, string> } {
  const value = text.trim();
  if (looksLikeId(value)) {
    return {
      query: `query GlobalSearchById($id: String!) {
  Patients1: PatientList(_id: $id, _count: 1) { ${patientFields} }
  ServiceRequestList(_id: $id, _count: 1) { ${serviceRequestFields} }
}`,
      variables: { id: value },
    };
  }
  return {
    query: `query GlobalSearch($text: String!) {
  Patients1: PatientList(name: $text, _count: ${GLOBAL_SEARCH_LIMIT}) { ${patientFields} }
  Patients2: PatientList(identifier: $text, _count: ${GLOBAL_SEARCH_LIMIT}) { ${patientFields} }
  ServiceRequestList(identifier: $text, _count: ${GLOBAL_SEARCH_LIMIT}) { ${serviceRequestFields} }
}`,
    variables: { text: value },
  };
}

/** The texts of a hit that the typed text is matched against, in display order. */
export function searchableTexts(hit: SearchHit): string[] {
  const texts: string[] = [];
  if ('name' in hit && hit.name) texts.push(...hit.name.map((name: HumanName) => formatHumanName(name)));
  if ('subject' in hit && hit.subject?.display) texts.push(hit.subject.display);
  texts.push(...(hit.identifier ?? []).map((identifier: Identifier) => identifier.value ?? ''));
  if (hit.id) texts.push(hit.id);
  return texts.filter((text) => text !== '');
}

/** Where the typed text first occurs in the hit's texts (case-insensitive); Infinity when it does not. */
export function matchPosition(hit: SearchHit, text: string): number {
  const needle = text.trim().toLowerCase();
  let best = Infinity;
  for (const candidate of searchableTexts(hit)) {
    const index = candidate.toLowerCase().indexOf(needle);
    if (index >= 0 && index < best) best = index;
  }
  return best;
}

/**
 * The suggestions to show (app-spec §7): the hits of every list, de-duplicated by id (first one
 * kept), ordered by earliest match position (stable, so list order breaks ties), cut to five.
 */
export function rankSearchHits(lists: readonly (readonly SearchHit[] | null | undefined)[], text: string): SearchHit[] {
  const seen = new Set<string>();
  const unique: SearchHit[] = [];
  for (const list of lists) {
    for (const hit of list ?? []) {
      if (!hit?.id || seen.has(hit.id)) continue;
      seen.add(hit.id);
      unique.push(hit);
    }
  }
  return unique
    .map((hit, order) => ({ hit, order, position: matchPosition(hit, text) }))
    .sort((a, b) => a.position - b.position || a.order - b.order)
    .slice(0, GLOBAL_SEARCH_LIMIT)
    .map(({ hit }) => hit);
}

/** The main line of a suggestion. */
export function hitTitle(hit: SearchHit): string {
  if ('name' in hit && hit.name?.[0]) return formatHumanName(hit.name[0]) || `${hit.resourceType}/${hit.id}`;
  if ('subject' in hit && hit.subject?.display) return hit.subject.display;
  return `${hit.resourceType}/${hit.id}`;
}

/** The second line of a suggestion: birth date or the type, then the first identifier. */
export function hitDetail(hit: SearchHit): string {
  const parts: string[] = [];
  if ('birthDate' in hit && hit.birthDate) parts.push(hit.birthDate);
  else if (hit.resourceType === 'ServiceRequest') parts.push('Service request');
  const identifier = hit.identifier?.find((candidate) => candidate.value)?.value;
  if (identifier) parts.push(identifier);
  return parts.join(' · ');
}
