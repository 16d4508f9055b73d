import { describe, expect, it } from 'vitest';
import { patientCompartments } from './patientCompartment';
import type { ReferenceRow } from '../search/indexRows';

const row = (code: string, reference: string, type: string, id: string): ReferenceRow =>
  ({ code, reference, target_type: type, target_id: id }) as ReferenceRow;

describe('patient compartments', () => {
  it('come from literal Patient/{id} references of the compartment parameters', () => {
    expect(patientCompartments('Observation', 'o1', [row('subject', 'Patient/p1', 'Patient', 'p1')])).toEqual([
      'Patient/p1',
    ]);
    expect(
      patientCompartments('Observation', 'o1', [row('subject', 'Patient/p1/_history/2', 'Patient', 'p1')]),
    ).toEqual(['Patient/p1']);
  });

  it('never from an absolute URL of another server, or other text that merely ends in Patient/{id}', () => {
    // The index gives these rows a target; they name no patient of this server.
    expect(
      patientCompartments('Observation', 'o1', [
        row('subject', 'https://other.example/fhir/R4/Patient/p1', 'Patient', 'p1'),
        row('performer', 'Foo/1/Patient/p2', 'Patient', 'p2'),
      ]),
    ).toEqual([]);
  });
});
