import { describe, expect, it } from 'vitest';
import { literalReferences } from './literalReferences';

describe('literal references', () => {
  it('finds Type/id references with their paths, at any depth', () => {
    expect(
      literalReferences({
        resourceType: 'Observation',
        subject: { reference: 'Patient/p1' },
        performer: [{ reference: 'Practitioner/a' }, { reference: 'Organization/o/_history/2' }],
        component: [{ valueReference: { reference: 'Device/d' } }],
        meta: { author: { reference: 'Practitioner/server-set' } },
      }),
    ).toEqual([
      { path: 'Observation.subject.reference', resourceType: 'Patient', id: 'p1' },
      { path: 'Observation.performer[0].reference', resourceType: 'Practitioner', id: 'a' },
      { path: 'Observation.performer[1].reference', resourceType: 'Organization', id: 'o' },
      { path: 'Observation.component[0].valueReference.reference', resourceType: 'Device', id: 'd' },
    ]);
  });

  it('leaves out contained, absolute, urn and conditional references', () => {
    expect(
      literalReferences({
        resourceType: 'Observation',
        subject: { reference: '#p' },
        performer: [
          { reference: 'https://other.example/fhir/Practitioner/1' },
          { reference: 'urn:uuid:6b7c1a3e-0000-4000-8000-000000000000' },
          { reference: 'Patient?identifier=urn:mrn|1' },
        ],
      }),
    ).toEqual([]);
  });
});
