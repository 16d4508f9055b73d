import { describe, expect, it } from 'vitest';
import {
  canonicalFhircastEventName,
  FHIRCAST_EVENT_CONTEXTS,
  FHIRCAST_EVENT_NAMES,
  FHIRCAST_EVENTS_NEEDING_VERSION_ID,
} from './fhircastEvents';

describe('FHIRcast events', () => {
  it('are the fourteen of the spec', () => {
    expect(FHIRCAST_EVENT_NAMES).toEqual([
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
    ]);
  });
  it('each have context rules', () => {
    expect(Object.keys(FHIRCAST_EVENT_CONTEXTS).sort()).toEqual([...FHIRCAST_EVENT_NAMES].sort());
  });
  it('require the main resource of each open and close event', () => {
    const required = (event: keyof typeof FHIRCAST_EVENT_CONTEXTS) =>
      FHIRCAST_EVENT_CONTEXTS[event].filter((rule) => !rule.optional).map((rule) => `${rule.key}:${rule.resourceType}`);
    expect(required('Patient-open')).toEqual(['patient:Patient']);
    expect(required('ImagingStudy-close')).toEqual(['study:ImagingStudy']);
    expect(required('Encounter-open')).toEqual(['encounter:Encounter', 'patient:Patient']);
    expect(required('DiagnosticReport-open')).toEqual(['report:DiagnosticReport', 'patient:Patient']);
    expect(required('DiagnosticReport-select')).toEqual(['report:DiagnosticReport', 'select:*']);
    expect(required('DiagnosticReport-update')).toEqual(['report:DiagnosticReport', 'updates:Bundle']);
    expect(required('syncerror')).toEqual(['operationoutcome:OperationOutcome']);
    expect(FHIRCAST_EVENT_CONTEXTS.heartbeat).toEqual([]);
  });
  it('need a version id only for DiagnosticReport-update', () => {
    expect(FHIRCAST_EVENTS_NEEDING_VERSION_ID).toEqual(['DiagnosticReport-update']);
  });
});

describe('canonicalFhircastEventName', () => {
  it('matches names in any case', () => {
    expect(canonicalFhircastEventName('patient-OPEN')).toBe('Patient-open');
    expect(canonicalFhircastEventName('USERLOGOUT')).toBe('userLogout');
    expect(canonicalFhircastEventName('Patient-open')).toBe('Patient-open');
  });
  it('knows no other names', () => {
    expect(canonicalFhircastEventName('Patient-opened')).toBeUndefined();
    expect(canonicalFhircastEventName('')).toBeUndefined();
    expect(canonicalFhircastEventName(3)).toBeUndefined();
  });
});
