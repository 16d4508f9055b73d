import { describe, expect, it } from 'vitest';
import type { AccessPolicy, Patient } from '@medplum/fhirtypes';
import {
  canPerform,
  canReadResourceType,
  canWriteResourceType,
  changedFields,
  entriesGranting,
  hiddenFieldsFor,
  policyEntriesFor,
  readonlyFieldsFor,
  removeFields,
  restoreFields,
} from './accessPolicy';

const policy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  resource: [
    { resourceType: 'Patient', hiddenFields: ['birthDate', 'identifier.value'], readonlyFields: ['gender'] },
    { resourceType: 'Observation', readonly: true },
    { resourceType: '*' },
  ],
};

describe('access-policy rules', () => {
  it('grants what is listed; without a policy everything but the never-writable types', () => {
    expect(canReadResourceType(undefined, 'Anything')).toBe(true);
    expect(canWriteResourceType(undefined, 'Patient')).toBe(true);
    expect(canWriteResourceType(undefined, 'Login')).toBe(false);
    expect(canWriteResourceType(undefined, 'DomainConfiguration')).toBe(false);
    expect(canWriteResourceType(undefined, 'JsonWebKey')).toBe(false);
    // Accounts and password links: super admins only (the browser hides what the server refuses).
    for (const type of ['User', 'UserSecurityRequest', 'PasswordChangeRequest']) {
      expect(canWriteResourceType(undefined, type)).toBe(false);
      expect(canReadResourceType(undefined, type)).toBe(true);
    }
    const narrow: AccessPolicy = { resourceType: 'AccessPolicy', resource: [{ resourceType: 'Patient' }] };
    expect(canReadResourceType(narrow, 'Patient')).toBe(true);
    expect(canReadResourceType(narrow, 'Observation')).toBe(false);
  });

  it('readonly entries allow reading only', () => {
    expect(canReadResourceType(policy, 'Observation')).toBe(true);
    expect(canWriteResourceType(policy, 'Observation')).toBe(false);
  });

  it('a wildcard covers other types but never the account and security types', () => {
    expect(canWriteResourceType(policy, 'Encounter')).toBe(true);
    for (const type of ['Project', 'ProjectMembership', 'User', 'PasswordChangeRequest', 'UserSecurityRequest']) {
      expect(canReadResourceType(policy, type), type).toBe(false);
    }
    // A type's own entries win over the wildcard.
    expect(policyEntriesFor(policy, 'Patient')).toHaveLength(1);
  });

  it('hidden fields are removed (with their primitive extensions) through arrays, without changing the input', () => {
    const patient: Patient = {
      resourceType: 'Patient',
      birthDate: '1970-01-01',
      _birthDate: { extension: [{ url: 'x', valueString: 'y' }] },
      identifier: [
        { system: 'a', value: '1' },
        { system: 'b', value: '2' },
      ],
    } as Patient;
    const visible = removeFields(patient, hiddenFieldsFor(policy, 'Patient'));
    expect(visible).toEqual({ resourceType: 'Patient', identifier: [{ system: 'a' }, { system: 'b' }] });
    expect(patient.birthDate).toBe('1970-01-01');
    expect(patient.identifier?.[0].value).toBe('1');
  });

  it('restores hidden fields from the stored version on write, element by element', () => {
    const stored: Patient = {
      resourceType: 'Patient',
      birthDate: '1970-01-01',
      identifier: [{ system: 'a', value: '1' }],
    };
    const incoming: Patient = { resourceType: 'Patient', gender: 'male', identifier: [{ system: 'a' }] };
    expect(restoreFields(incoming, stored, hiddenFieldsFor(policy, 'Patient'))).toEqual({
      resourceType: 'Patient',
      gender: 'male',
      birthDate: '1970-01-01',
      identifier: [{ system: 'a', value: '1' }],
    });
    // A caller cannot add a hidden field the stored version does not have.
    expect(
      restoreFields({ resourceType: 'Patient', birthDate: '2000-01-01' }, { resourceType: 'Patient' }, ['birthDate']),
    ).toEqual({
      resourceType: 'Patient',
    });
  });

  it('detects changed read-only fields', () => {
    expect(readonlyFieldsFor(policy, 'Patient')).toEqual(['gender', 'birthDate', 'identifier.value']);
    const before: Patient = { resourceType: 'Patient', gender: 'male' };
    expect(changedFields(before, { resourceType: 'Patient', gender: 'female' }, ['gender'])).toEqual(['gender']);
    expect(changedFields(before, { resourceType: 'Patient', gender: 'male', active: true }, ['gender'])).toEqual([]);
    expect(changedFields(undefined, { resourceType: 'Patient', gender: 'male' }, ['gender'])).toEqual(['gender']);
  });

  it('does not take a reordering of an object’s keys for a change (jsonb stores them reordered)', () => {
    const stored = { resourceType: 'Patient', identifier: [{ value: 'MRN-1', system: 'urn:mrn' }] } as Patient;
    const written = { resourceType: 'Patient', identifier: [{ system: 'urn:mrn', value: 'MRN-1' }] } as Patient;
    expect(changedFields(stored, written, ['identifier'])).toEqual([]);
    const other = { resourceType: 'Patient', identifier: [{ system: 'urn:mrn', value: 'MRN-2' }] } as Patient;
    expect(changedFields(stored, other, ['identifier'])).toEqual(['identifier']);
    // The order of an array's items is a change.
    const two = [
      { system: 'a', value: '1' },
      { system: 'b', value: '2' },
    ];
    expect(
      changedFields(
        { resourceType: 'Patient', identifier: two },
        { resourceType: 'Patient', identifier: [two[1]!, two[0]!] },
        ['identifier'],
      ),
    ).toEqual(['identifier']);
  });

  it("counts an entry's read-only fields only for the interactions it grants", () => {
    const portal: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [
        { resourceType: 'Communication', interaction: ['create'], hiddenFields: ['note'] },
        { resourceType: 'Communication', interaction: ['update'], readonlyFields: ['payload', 'sender'] },
      ],
    };
    expect(readonlyFieldsFor(portal, 'Communication', 'create')).toEqual(['note']);
    expect(readonlyFieldsFor(portal, 'Communication', 'update')).toEqual(['payload', 'sender', 'note']);
    // A patch is an update to an interaction list.
    expect(readonlyFieldsFor(portal, 'Communication', 'patch')).toEqual(['payload', 'sender', 'note']);
    // Without an interaction every entry counts (what a form shows before it knows the write).
    expect(readonlyFieldsFor(portal, 'Communication')).toEqual(['payload', 'sender', 'note']);
  });
});

describe('interaction lists', () => {
  const listed: AccessPolicy = {
    resourceType: 'AccessPolicy',
    resource: [
      { resourceType: 'Patient', interaction: ['read', 'search'] },
      { resourceType: 'Communication', readonly: true },
      { resourceType: 'Communication', criteria: 'Communication?status=in-progress', interaction: ['create'] },
      { resourceType: 'Communication', criteria: 'Communication?recipient=%profile', interaction: ['update'] },
      { resourceType: 'Task', interaction: [] },
    ],
  };

  it('grant the listed interactions alone; a patch is an update', () => {
    expect(canPerform(listed, 'Patient', 'read')).toBe(true);
    expect(canPerform(listed, 'Patient', 'history')).toBe(false);
    expect(canPerform(listed, 'Patient', 'update')).toBe(false);
    expect(canWriteResourceType(listed, 'Patient')).toBe(false);
    expect(canPerform(listed, 'Communication', 'patch')).toBe(true);
    expect(canPerform(listed, 'Communication', 'delete')).toBe(false);
    expect(canReadResourceType(listed, 'Task')).toBe(false);
    expect(canWriteResourceType(listed, 'Task')).toBe(false);
  });

  it('pick the entries whose compartment or criteria a row must meet for each interaction', () => {
    expect(entriesGranting(listed, 'Communication', 'create').map((entry) => entry.criteria)).toEqual([
      'Communication?status=in-progress',
    ]);
    expect(entriesGranting(listed, 'Communication', 'update').map((entry) => entry.criteria)).toEqual([
      'Communication?recipient=%profile',
    ]);
    expect(entriesGranting(listed, 'Communication', 'search')).toEqual([
      { resourceType: 'Communication', readonly: true },
    ]);
  });
});
