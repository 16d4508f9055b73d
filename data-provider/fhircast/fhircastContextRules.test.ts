import { describe, expect, it } from 'vitest';
import { validateContext } from './fhircastContextRules';

const patient = { key: 'patient', resource: { resourceType: 'Patient', id: 'p1' } };
const encounter = { key: 'encounter', resource: { resourceType: 'Encounter', id: 'e1' } };
const report = { key: 'report', resource: { resourceType: 'DiagnosticReport', id: 'r1' } };
const study = (id: string) => ({ key: 'study', resource: { resourceType: 'ImagingStudy', id } });

describe('validateContext', () => {
  it('accepts the context each event expects', () => {
    expect(validateContext('Patient-open', [patient])).toBeUndefined();
    expect(validateContext('Patient-open', [patient, encounter])).toBeUndefined();
    expect(validateContext('Encounter-close', [encounter, patient])).toBeUndefined();
    expect(validateContext('ImagingStudy-open', [study('s1')])).toBeUndefined();
    expect(
      validateContext('syncerror', [
        { key: 'operationoutcome', resource: { resourceType: 'OperationOutcome', id: 'o' } },
      ]),
    ).toBeUndefined();
    expect(validateContext('heartbeat', [])).toBeUndefined();
    expect(validateContext('userLogout', [])).toBeUndefined();
  });
  it('accepts an event name in another case', () => {
    expect(validateContext('patient-open', [patient])).toBeUndefined();
  });
  it('rejects unknown events and a context that is not a list', () => {
    expect(validateContext('Chart-open', [])).toBe('Unknown FHIRcast event: Chart-open');
    expect(validateContext('Patient-open', { patient })).toBe('Context of Patient-open must be an array');
  });
  it('needs an object with a string key for each entry', () => {
    expect(validateContext('Patient-open', [null])).toBe('Context entry 0 of Patient-open must be an object');
    expect(validateContext('Patient-open', [patient, { resource: patient.resource }])).toBe(
      'Context entry 1 of Patient-open needs a string key',
    );
    expect(validateContext('Patient-open', [{ key: 7, resource: patient.resource }])).toBe(
      'Context entry 0 of Patient-open needs a string key',
    );
  });
  it('rejects a key the event does not have, naming the keys it has', () => {
    expect(validateContext('Patient-open', [patient, report])).toBe(
      "Patient-open has no context 'report' (its keys: 'patient', 'encounter')",
    );
    expect(validateContext('heartbeat', [patient])).toBe("heartbeat has no context 'patient' (its keys: none)");
  });
  it('needs a resource with a string id and a known type', () => {
    expect(validateContext('Patient-open', [{ key: 'patient' }])).toBe(
      "Context 'patient' of Patient-open needs a resource",
    );
    expect(validateContext('Patient-open', [{ key: 'patient', resource: { resourceType: 'Patient' } }])).toBe(
      "Context 'patient' of Patient-open needs a resource with a string id",
    );
    expect(validateContext('Patient-open', [{ key: 'patient', resource: { resourceType: 'Patient', id: 1 } }])).toBe(
      "Context 'patient' of Patient-open needs a resource with a string id",
    );
    expect(validateContext('Patient-open', [{ key: 'patient', resource: { resourceType: 'Person2', id: 'x' } }])).toBe(
      "Context 'patient' of Patient-open has unknown resource type 'Person2'",
    );
  });
  it('needs the resource type the key expects', () => {
    expect(
      validateContext('Patient-open', [{ key: 'patient', resource: { resourceType: 'Encounter', id: 'x' } }]),
    ).toBe("Context 'patient' of Patient-open must be a Patient, not a Encounter");
  });
  it('needs every required key', () => {
    expect(validateContext('Patient-open', [])).toBe("Patient-open needs context 'patient' (a Patient)");
    expect(validateContext('Encounter-open', [encounter])).toBe("Encounter-open needs context 'patient' (a Patient)");
    expect(validateContext('DiagnosticReport-select', [report])).toBe(
      "DiagnosticReport-select needs context 'select' (a resource)",
    );
  });
  it('allows a key once unless many are allowed', () => {
    expect(validateContext('Patient-open', [patient, patient])).toBe(
      "Patient-open allows one context 'patient', got 2",
    );
    expect(validateContext('DiagnosticReport-open', [report, patient, study('a'), study('b')])).toBeUndefined();
  });
  it('lets a selection hold several resources of any known type', () => {
    expect(
      validateContext('DiagnosticReport-select', [
        report,
        { key: 'select', resource: { resourceType: 'Observation', id: 'o1' } },
        { key: 'select', resource: { resourceType: 'ImagingStudy', id: 's1' } },
      ]),
    ).toBeUndefined();
  });
  it('needs context.versionId for DiagnosticReport-update', () => {
    const context = [report, { key: 'updates', resource: { resourceType: 'Bundle', id: 'b1', type: 'transaction' } }];
    expect(validateContext('DiagnosticReport-update', context)).toBe('DiagnosticReport-update needs context.versionId');
    expect(validateContext('DiagnosticReport-update', context, '')).toBe(
      'DiagnosticReport-update needs context.versionId',
    );
    expect(validateContext('DiagnosticReport-update', context, 'v2')).toBeUndefined();
  });
});
