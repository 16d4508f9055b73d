import type { Coding, DeviceUseStatement, Observation, Resource } from '@medplum/fhirtypes';

/**
 * The sections of the International Patient Summary this server fills, in document order: their
 * LOINC codes and titles (IPS IG, Composition (IPS)), and the searches that find their entries.
 */

export type SummarySectionKey =
  | 'allergies'
  | 'medications'
  | 'problems'
  | 'immunizations'
  | 'procedures'
  | 'devices'
  | 'results'
  | 'vitalSigns'
  | 'pastIllness'
  | 'planOfCare';

/** Entries one section lists at most (and, for vital signs, the number of distinct measurements). */
export const summarySectionLimit = 50;
/**
 * Vital-sign Observations read to find the latest of each measurement: a patient measured every
 * few hours has hundreds of readings of a handful of codes.
 */
export const summaryVitalSignsRead = 200;

export interface SummarySearch {
  resourceType: string;
  /** Search parameters besides the patient (added as `patient=Patient/{id}`) and `_count`. */
  query: Record<string, string>;
  count?: number;
}

export interface SummarySectionDefinition {
  key: SummarySectionKey;
  title: string;
  code: Coding;
  /** The IPS requires the section: present even when empty, with an emptyReason. */
  required: boolean;
  searches: SummarySearch[];
  /**
   * What the section lists of what its searches found (newest first; several searches' results
   * merged by date), when not all of it.
   */
  select?: (found: Resource[]) => Resource[];
}

const loinc = (code: string, display: string): Coding => ({ system: 'http://loinc.org', code, display });

const notEnteredInError = { 'verification-status:not': 'entered-in-error' };
const resolvedStatuses = 'inactive,remission,resolved';

export const summarySections: readonly SummarySectionDefinition[] = [
  {
    key: 'allergies',
    title: 'Allergies and Intolerances',
    code: loinc('48765-2', 'Allergies and adverse reactions Document'),
    required: true,
    searches: [{ resourceType: 'AllergyIntolerance', query: { ...notEnteredInError, _sort: '-_lastUpdated' } }],
  },
  {
    key: 'medications',
    title: 'Medication Summary',
    code: loinc('10160-0', 'History of Medication use Narrative'),
    required: true,
    // What the patient takes now: past courses belong to the full record, not to a summary.
    searches: [
      { resourceType: 'MedicationStatement', query: { status: 'active,intended,on-hold', _sort: '-_lastUpdated' } },
      { resourceType: 'MedicationRequest', query: { status: 'active,on-hold', _sort: '-_lastUpdated' } },
    ],
  },
  {
    key: 'problems',
    title: 'Problem List',
    code: loinc('11450-4', 'Problem list - Reported'),
    required: true,
    // `:not` keeps Conditions without a clinical status: a problem nobody has closed is still one.
    searches: [
      {
        resourceType: 'Condition',
        query: { 'clinical-status:not': resolvedStatuses, ...notEnteredInError, _sort: '-_lastUpdated' },
      },
    ],
  },
  {
    key: 'immunizations',
    title: 'Immunizations',
    code: loinc('11369-6', 'History of Immunization Narrative'),
    required: false,
    searches: [{ resourceType: 'Immunization', query: { 'status:not': 'entered-in-error', _sort: '-date' } }],
  },
  {
    key: 'procedures',
    title: 'History of Procedures',
    code: loinc('47519-4', 'History of Procedures Document'),
    required: false,
    searches: [{ resourceType: 'Procedure', query: { 'status:not': 'entered-in-error,not-done', _sort: '-date' } }],
  },
  {
    key: 'devices',
    title: 'Medical Devices',
    code: loinc('46264-8', 'History of medical device use'),
    required: false,
    searches: [
      // DeviceUseStatement has no status search parameter: its status is checked in `select`.
      { resourceType: 'DeviceUseStatement', query: { _sort: '-_lastUpdated' } },
      { resourceType: 'Device', query: { 'status:not': 'entered-in-error', _sort: '-_lastUpdated' } },
    ],
    select: withoutStatedDevices,
  },
  {
    key: 'results',
    title: 'Results',
    code: loinc('30954-2', 'Relevant diagnostic tests/laboratory data Narrative'),
    required: false,
    searches: [
      {
        resourceType: 'DiagnosticReport',
        query: { 'status:not': 'entered-in-error,cancelled', _sort: '-date' },
      },
      {
        resourceType: 'Observation',
        query: { category: 'laboratory', 'status:not': 'entered-in-error,cancelled', _sort: '-date' },
      },
    ],
  },
  {
    key: 'vitalSigns',
    title: 'Vital Signs',
    code: loinc('8716-3', 'Vital signs'),
    required: false,
    searches: [
      {
        resourceType: 'Observation',
        query: { category: 'vital-signs', 'status:not': 'entered-in-error,cancelled', _sort: '-date' },
        count: summaryVitalSignsRead,
      },
    ],
    select: latestPerCode,
  },
  {
    key: 'pastIllness',
    title: 'History of Past Illness',
    code: loinc('11348-0', 'History of Past illness Narrative'),
    required: false,
    searches: [
      {
        resourceType: 'Condition',
        query: { 'clinical-status': resolvedStatuses, ...notEnteredInError, _sort: '-_lastUpdated' },
      },
    ],
  },
  {
    key: 'planOfCare',
    title: 'Plan of Care',
    code: loinc('18776-5', 'Plan of care note'),
    required: false,
    searches: [{ resourceType: 'CarePlan', query: { status: 'active,on-hold', _sort: '-_lastUpdated' } }],
  },
];

/**
 * The newest Observation of each measurement (found newest first): a summary shows the current
 * blood pressure, not its history.
 */
export function latestPerCode(found: Resource[]): Resource[] {
  const seen = new Set<string>();
  return found.filter((resource) => {
    const key = measurementKey(resource as Observation);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function measurementKey(observation: Observation): string {
  const codings = observation.code?.coding ?? [];
  // LOINC first: the same measurement often carries a local code beside it, in either order.
  const coding = codings.find((c) => c.system === 'http://loinc.org' && c.code) ?? codings.find((c) => c.code);
  if (coding) return `${coding.system ?? ''}|${coding.code}`;
  return `text:${observation.code?.text?.trim().toLowerCase() ?? ''}`;
}

/** A Device listed through a DeviceUseStatement is not listed again on its own. */
function withoutStatedDevices(found: Resource[]): Resource[] {
  const statements = found.filter(
    (resource): resource is DeviceUseStatement =>
      resource.resourceType === 'DeviceUseStatement' && resource.status !== 'entered-in-error',
  );
  const stated = new Set(statements.map((statement) => statement.device.reference));
  return found.filter((resource) =>
    resource.resourceType === 'Device'
      ? !stated.has(`Device/${resource.id}`)
      : resource.resourceType !== 'DeviceUseStatement' || statements.includes(resource),
  );
}
