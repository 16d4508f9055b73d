import { describe, expect, it } from 'vitest';
import type { Communication, Observation, Patient, Practitioner } from '@medplum/fhirtypes';
import { resourceLink } from './rowLink';

describe('row links', () => {
  it('go inside the patient when the resource refers to a Patient through subject, patient or sender', () => {
    const observation: Observation = {
      resourceType: 'Observation',
      id: 'o1',
      status: 'final',
      code: { text: 'x' },
      subject: { reference: 'Patient/p1' },
    };
    expect(resourceLink(observation)).toBe('/Patient/p1/Observation/o1');
    const message: Communication = {
      resourceType: 'Communication',
      id: 'c1',
      status: 'completed',
      sender: { reference: 'Patient/p2' },
    };
    expect(resourceLink(message)).toBe('/Patient/p2/Communication/c1');
  });

  it('go to /{type}/{id} otherwise', () => {
    const grouped: Observation = {
      resourceType: 'Observation',
      id: 'o2',
      status: 'final',
      code: { text: 'x' },
      subject: { reference: 'Group/g1' },
    };
    expect(resourceLink(grouped)).toBe('/Observation/o2');
    expect(resourceLink({ resourceType: 'Practitioner', id: 'pr1' } as Practitioner)).toBe('/Practitioner/pr1');
    expect(resourceLink({ resourceType: 'Patient', id: 'p1' } as Patient)).toBe('/Patient/p1');
  });
});
