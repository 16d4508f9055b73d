import { describe, expect, it } from 'vitest';
import type { AccessPolicy } from '@medplum/fhirtypes';
import { listActionsFor } from './listActions';

const frontDesk: AccessPolicy = {
  resourceType: 'AccessPolicy',
  resource: [{ resourceType: 'Patient' }, { resourceType: 'Practitioner', readonly: true }],
};

describe('list toolbar actions', () => {
  it('hide New, Export and Delete on a type the policy makes read-only or leaves out', () => {
    expect(listActionsFor(frontDesk, false, 'Practitioner')).toEqual({ create: false, exportAndDelete: false });
    expect(listActionsFor(frontDesk, false, 'Observation')).toEqual({ create: false, exportAndDelete: false });
  });

  it('offer them where the policy lets the user write, and to super admins and unrestricted members', () => {
    expect(listActionsFor(frontDesk, false, 'Patient')).toEqual({ create: true, exportAndDelete: true });
    expect(listActionsFor(frontDesk, true, 'Practitioner')).toEqual({ create: true, exportAndDelete: true });
    expect(listActionsFor(undefined, false, 'Observation')).toEqual({ create: true, exportAndDelete: true });
  });

  it('follow the interaction lists: New needs create, Export and Delete need delete', () => {
    const updateOnly: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Task', interaction: ['read', 'search', 'update'] }],
    };
    expect(listActionsFor(updateOnly, false, 'Task')).toEqual({ create: false, exportAndDelete: false });
    const createOnly: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Communication', interaction: ['read', 'search', 'create'] }],
    };
    expect(listActionsFor(createOnly, false, 'Communication')).toEqual({ create: true, exportAndDelete: false });
  });

  it('never offer New on a type only the server writes', () => {
    expect(listActionsFor(undefined, false, 'Login').create).toBe(false);
  });
});
