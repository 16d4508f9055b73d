import type { HumanName, Identifier, Patient, ServiceRequest } from '@medplum/fhirtypes';
import { formatDate, formatHumanName, formatIdentifier } from '../../data-provider/formatting';

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

// The identifier's type tells a medical record number (MR) from the rest (hitIdentifier).
const identifierFields = 'identifier { system value type { coding { system code } text } }';
const patientFields = `resourceType id ${identifierFields} name { given family text } birthDate`;
const serviceRequestFields = `resourceType id ${identifierFields} subject { display }`;

/** The words of the typed text: each must match a part of the patient's name. */
export function searchWords(text: string): string[] {
  return text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
}

/**
 * `name sw "wendy" and name sw "littel"`: the FHIR `_filter` that means `name=wendy&name=littel`
 * (each word starts some part of a name, all of them together). A GraphQL search argument takes one
 * value, so a repeated `name` cannot be sent there; the server runs each `sw` as the plain `name`.
 */
export function nameFilter(words: readonly string[]): string {
  return words.map((word) => `name sw "${word.replace(/["\\]/g, '\\$&')}"`).join(' and ');
}

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
  const words = searchWords(value);
  // One word keeps the plain `name` search; several ask for every word (a full name, "wendy littel").
  const byName: { declaration: string; argument: string; variables: Record<string, string> } =
    words.length > 1
      ? { declaration: ', $names: String!', argument: '_filter: $names', variables: { names: nameFilter(words) } }
      : { declaration: '', argument: 'name: $text', variables: {} };
  return {
    query: `query GlobalSearch($text: String!${byName.declaration}) {
  Patients1: PatientList(${byName.argument}, _count: ${GLOBAL_SEARCH_LIMIT}) { ${patientFields} }
  Patients2: PatientList(identifier: $text, _count: ${GLOBAL_SEARCH_LIMIT}) { ${patientFields} }
  ServiceRequestList(identifier: $text, _count: ${GLOBAL_SEARCH_LIMIT}) { ${serviceRequestFields} }
}`,
    variables: { text: value, ...byName.variables },
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

const isMedicalRecordNumber = (identifier: Identifier): boolean =>
  identifier.type?.coding?.some((coding) => coding.code === 'MR') === true;

/**
 * The identifier a suggestion shows: a patient's medical record number ('MRN: 12345'), else one of
 * theirs without a type (a clinic's own number); an order's first identifier. Never a UUID-looking
 * value (Synthea's, even when typed MR), which names nothing a person would recognise, and never a
 * patient's other typed identifiers (social security, driver's licence, passport) in a dropdown.
 */
export function hitIdentifier(hit: SearchHit): string {
  const readable = (hit.identifier ?? []).filter((identifier) => identifier.value && !looksLikeId(identifier.value));
  if (hit.resourceType !== 'Patient') return formatIdentifier(readable[0]);
  const mrn = readable.find(isMedicalRecordNumber);
  if (mrn) return `MRN: ${mrn.value?.trim()}`;
  return formatIdentifier(readable.find((identifier) => !identifier.type));
}

/** The second line of a suggestion: birth date (as the app's lists show dates) or the type, then the identifier. */
export function hitDetail(hit: SearchHit): string {
  const parts: string[] = [];
  if ('birthDate' in hit && hit.birthDate) parts.push(formatDate(hit.birthDate));
  else if (hit.resourceType === 'ServiceRequest') parts.push('Service request');
  const identifier = hitIdentifier(hit);
  if (identifier) parts.push(identifier);
  return parts.join(' · ');
}
