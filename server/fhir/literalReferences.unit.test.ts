import { describe, expect, it } from 'vitest';
import { indexedReferences, isLiteralReference, literalReferences } from './literalReferences';

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

describe('indexed references (what a limited caller’s write is checked for)', () => {
  it('are every relative reference the search index files under a Type/id of this server, never an absolute URL', () => {
    expect(
      indexedReferences({
        resourceType: 'Communication',
        subject: { reference: 'Patient/p1' },
        about: [
          { reference: 'https://other.example/fhir/Patient/p2' },
          { reference: 'Foo/1/Patient/p3' },
          { reference: '#contained' },
          { reference: 'urn:uuid:6b7c1a3e-0000-4000-8000-000000000000' },
          { reference: 'Patient?identifier=urn:mrn|1' },
        ],
      }),
    ).toEqual([
      { path: 'Communication.subject.reference', resourceType: 'Patient', id: 'p1' },
      { path: 'Communication.about[1].reference', resourceType: 'Patient', id: 'p3' },
    ]);
  });

  it('isLiteralReference accepts Type/id and its versions only', () => {
    expect(isLiteralReference('Patient/p1')).toBe(true);
    expect(isLiteralReference('Patient/p1/_history/2')).toBe(true);
    expect(isLiteralReference('https://other.example/fhir/Patient/p1')).toBe(false);
    expect(isLiteralReference('Foo/1/Patient/p1')).toBe(false);
  });
});
