import { describe, expect, it } from 'vitest';
import { parseResourceScope, resourceScopesOf, scopesGranting, scopesGrantingSight } from './smartScopes';

describe('SMART scopes', () => {
  it('parses v1 scopes', () => {
    expect(parseResourceScope('patient/Observation.read')).toEqual({
      text: 'patient/Observation.read',
      context: 'patient',
      resourceType: 'Observation',
      interactions: ['read', 'vread', 'history', 'search'],
    });
    expect(parseResourceScope('user/*.write')?.interactions).toEqual(['create', 'update', 'patch', 'delete']);
    expect(parseResourceScope('system/*.*')?.interactions).toHaveLength(8);
  });

  it('parses v2 scopes with their letters and query restriction', () => {
    const scope = parseResourceScope('patient/Observation.rs?category=laboratory');
    expect(scope?.interactions).toEqual(['read', 'vread', 'history', 'search']);
    expect(scope?.query).toBe('category=laboratory');
    expect([...(parseResourceScope('user/Patient.cruds')?.interactions ?? [])].sort()).toEqual(
      ['create', 'delete', 'history', 'patch', 'read', 'search', 'update', 'vread'].sort(),
    );
    expect(parseResourceScope('user/Patient.c')?.interactions).toEqual(['create']);
    expect(parseResourceScope('user/Patient.u')?.interactions).toEqual(['update', 'patch']);
  });

  it('refuses malformed scopes', () => {
    for (const text of [
      'user/Observation.srd', // wrong order
      'user/Observation.rr',
      'user/Observation.',
      'user/observation.read',
      'admin/Patient.read',
      'user/Observation.read?',
      'user/Observation.rs?category',
      'openid',
    ]) {
      expect(parseResourceScope(text), text).toBeUndefined();
    }
  });

  it('a token without resource scopes is not narrowed; one with only malformed ones gets nothing', () => {
    expect(resourceScopesOf('openid profile offline_access')).toBeUndefined();
    expect(resourceScopesOf(undefined)).toBeUndefined();
    expect(resourceScopesOf('openid launch/patient fhirUser')).toBeUndefined();
    expect(resourceScopesOf('openid user/Observation.bogus')).toEqual([]);
    expect(resourceScopesOf('openid user/Observation.read patient/*.rs')?.map((s) => s.text)).toEqual([
      'user/Observation.read',
      'patient/*.rs',
    ]);
  });

  it('matches by type and interaction', () => {
    const scopes = resourceScopesOf('user/Observation.read patient/*.c user/Patient.s') ?? [];
    expect(scopesGranting(scopes, 'Observation', 'read').map((s) => s.text)).toEqual(['user/Observation.read']);
    expect(scopesGranting(scopes, 'Patient', 'create').map((s) => s.text)).toEqual(['patient/*.c']);
    expect(scopesGranting(scopes, 'Patient', 'update')).toEqual([]);
    expect(scopesGranting(scopes, 'Patient', 'read')).toEqual([]);
    expect(scopesGrantingSight(scopes, 'Patient').map((s) => s.text)).toEqual(['user/Patient.s']);
    expect(scopesGrantingSight(scopes, 'Encounter')).toEqual([]);
  });
});
