import type { ResourceType } from '@medplum/fhirtypes';

/** The FHIRcast events this hub and client know (spec §5, FHIRcast STU3). */
export const FHIRCAST_EVENT_NAMES = [
  'Patient-open',
  'Patient-close',
  'ImagingStudy-open',
  'ImagingStudy-close',
  'Encounter-open',
  'Encounter-close',
  'DiagnosticReport-open',
  'DiagnosticReport-close',
  'DiagnosticReport-select',
  'DiagnosticReport-update',
  'syncerror',
  'heartbeat',
  'userLogout',
  'userHibernate',
] as const;

export type FhircastEventName = (typeof FHIRCAST_EVENT_NAMES)[number];

/** One context key an event carries. */
export interface FhircastContextKeyRule {
  key: string;
  /** The resource type the key holds; '*' for any known type (the resources a report selects). */
  resourceType: ResourceType | '*';
  /** Absent keys are allowed only when optional. */
  optional?: boolean;
  /** Whether the key may appear more than once (several studies of one report, several selections). */
  manyAllowed?: boolean;
}

const patientAndEncounter: readonly FhircastContextKeyRule[] = [
  { key: 'patient', resourceType: 'Patient' },
  { key: 'encounter', resourceType: 'Encounter', optional: true },
];
const imagingStudy: readonly FhircastContextKeyRule[] = [
  { key: 'study', resourceType: 'ImagingStudy' },
  { key: 'patient', resourceType: 'Patient', optional: true },
  { key: 'encounter', resourceType: 'Encounter', optional: true },
];
const encounter: readonly FhircastContextKeyRule[] = [
  { key: 'encounter', resourceType: 'Encounter' },
  { key: 'patient', resourceType: 'Patient' },
];
const diagnosticReport: readonly FhircastContextKeyRule[] = [
  { key: 'report', resourceType: 'DiagnosticReport' },
  { key: 'patient', resourceType: 'Patient' },
  { key: 'study', resourceType: 'ImagingStudy', optional: true, manyAllowed: true },
];

/** The context keys of each event (FHIRcast STU3 event catalogue). Events without context have none. */
export const FHIRCAST_EVENT_CONTEXTS: Readonly<Record<FhircastEventName, readonly FhircastContextKeyRule[]>> = {
  'Patient-open': patientAndEncounter,
  'Patient-close': patientAndEncounter,
  'ImagingStudy-open': imagingStudy,
  'ImagingStudy-close': imagingStudy,
  'Encounter-open': encounter,
  'Encounter-close': encounter,
  'DiagnosticReport-open': diagnosticReport,
  'DiagnosticReport-close': diagnosticReport,
  'DiagnosticReport-select': [
    { key: 'report', resourceType: 'DiagnosticReport' },
    { key: 'patient', resourceType: 'Patient', optional: true },
    { key: 'select', resourceType: '*', manyAllowed: true },
  ],
  'DiagnosticReport-update': [
    { key: 'report', resourceType: 'DiagnosticReport' },
    { key: 'patient', resourceType: 'Patient', optional: true },
    { key: 'updates', resourceType: 'Bundle' },
  ],
  syncerror: [{ key: 'operationoutcome', resourceType: 'OperationOutcome' }],
  heartbeat: [],
  userLogout: [],
  userHibernate: [],
};

/** Events whose context must carry the version of the content it changes. */
export const FHIRCAST_EVENTS_NEEDING_VERSION_ID: readonly FhircastEventName[] = ['DiagnosticReport-update'];

const byLowerCase = new Map<string, FhircastEventName>(FHIRCAST_EVENT_NAMES.map((name) => [name.toLowerCase(), name]));

/**
 * The event's name as this catalogue spells it, or undefined for an unknown event. FHIRcast event
 * names are case-insensitive, so 'patient-open' from another application is 'Patient-open'.
 */
export function canonicalFhircastEventName(name: unknown): FhircastEventName | undefined {
  return typeof name === 'string' ? byLowerCase.get(name.toLowerCase()) : undefined;
}
