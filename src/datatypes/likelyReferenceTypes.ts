/**
 * Which resource types a Reference to any type (`Reference(Any)`: Task.for, Provenance.target,
 * List.entry.item…) most likely points at, from the element's name and the resource it sits in —
 * so the picker opens on a type people mean (Task.for → Patient), not the alphabet's first
 * (AccessPolicy). A pure rule shared by every reference picker.
 */

const PATIENT_LIKE = ['Patient', 'Group', 'RelatedPerson'];
const PEOPLE_ACTING = ['Practitioner', 'PractitionerRole', 'Organization', 'Patient', 'RelatedPerson', 'Device'];
const ORGANIZATIONS = ['Organization'];
const REQUESTS = ['ServiceRequest', 'CarePlan', 'MedicationRequest', 'Task'];
/** What a clinician most often points at when the element says nothing more. */
const COMMON = ['Patient', 'Practitioner', 'Organization', 'Encounter', 'Observation'];

const BY_ELEMENT: Record<string, readonly string[]> = {
  for: PATIENT_LIKE,
  subject: PATIENT_LIKE,
  patient: ['Patient'],
  beneficiary: ['Patient'],
  individual: ['Patient', 'Practitioner', 'RelatedPerson'],
  performer: PEOPLE_ACTING,
  author: PEOPLE_ACTING,
  requester: PEOPLE_ACTING,
  recorder: PEOPLE_ACTING,
  asserter: PEOPLE_ACTING,
  practitioner: ['Practitioner', 'PractitionerRole'],
  participant: PEOPLE_ACTING,
  actor: PEOPLE_ACTING,
  owner: PEOPLE_ACTING,
  sender: PEOPLE_ACTING,
  recipient: PEOPLE_ACTING,
  attester: PEOPLE_ACTING,
  party: PEOPLE_ACTING,
  who: PEOPLE_ACTING,
  agent: PEOPLE_ACTING,
  enterer: PEOPLE_ACTING,
  verifier: PEOPLE_ACTING,
  collector: PEOPLE_ACTING,
  responsible: PEOPLE_ACTING,
  encounter: ['Encounter'],
  context: ['Encounter', 'EpisodeOfCare'],
  location: ['Location'],
  organization: ORGANIZATIONS,
  managingOrganization: ORGANIZATIONS,
  custodian: ORGANIZATIONS,
  provider: ['Organization', 'Practitioner', 'PractitionerRole'],
  insurer: ORGANIZATIONS,
  issuer: ORGANIZATIONS,
  serviceProvider: ORGANIZATIONS,
  basedOn: REQUESTS,
  reasonReference: ['Condition', 'Observation', 'DiagnosticReport'],
  specimen: ['Specimen'],
  device: ['Device'],
  medication: ['Medication'],
  questionnaire: ['Questionnaire'],
};

/** The last element name of a path (`Task.restriction.recipient[0]` → `recipient`, `value[x]` → `value`). */
function elementName(path: string): string {
  const last = path.split('.').pop() ?? '';
  return last.replace(/\[.*$/, '').replace(/:.*$/, '');
}

/**
 * The likely target types of a `Reference(Any)` element, most likely first. `partOf` and
 * `replaces`-like links point at the same type as the resource they sit in (Task.partOf → Task).
 */
export function likelyReferenceTypes(path: string, knownTypes: readonly string[]): string[] {
  const resourceType = path.split('.')[0] ?? '';
  const name = elementName(path);
  const known = new Set(knownTypes);
  const sameType = name === 'partOf' || name === 'replaces' || name === 'derivedFrom' || name === 'predecessor';
  // A choice's value is named by its type (`subjectReference`): the element's own name decides.
  const byName = BY_ELEMENT[name] ?? BY_ELEMENT[name.replace(/Reference$/, '')];
  const likely = sameType && known.has(resourceType) ? [resourceType] : (byName ?? COMMON);
  return likely.filter((type) => known.has(type));
}

/**
 * The type choices a reference picker offers: the element's own targets as the definition lists
 * them; for any type, the likely ones first and then every other known type.
 */
export function referenceTypeChoices(
  path: string,
  targets: readonly string[],
  knownTypes: readonly string[],
): { likely: string[]; others: string[] } {
  if (targets.length) return { likely: [...targets], others: [] };
  const likely = likelyReferenceTypes(path, knownTypes);
  return { likely, others: knownTypes.filter((type) => !likely.includes(type)) };
}
