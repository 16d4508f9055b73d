import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { defaultTextSearchParameter, filterPairs } from './filterParameters';
import { listSearchQuery } from './listSearch';
import { interactionOfAction } from './raAccess';
import { toRecord, toResource } from './raRecord';
import { sortParameter } from './sortParameter';

describe('filterPairs', () => {
  it('leaves out empty values and maps id, ids and q', () => {
    expect(
      filterPairs('Patient', { a: undefined, b: null, c: '', d: [], id: ['x', 'y'], q: 'ev', active: false }),
    ).toEqual([
      ['_id', 'x,y'],
      ['name', 'ev'],
      ['active', 'false'],
    ]);
    expect(filterPairs('Observation', { ids: 'z' })).toEqual([['_id', 'z']]);
    expect(filterPairs('Observation', { q: 'x' }, () => 'code:text')).toEqual([['code:text', 'x']]);
  });

  it('escapes commas and backslashes inside the values of a list', () => {
    expect(filterPairs('Patient', { name: ['a,b', 'c\\d'] })).toEqual([['name', 'a\\,b,c\\\\d']]);
    // A single value is sent as written: its commas already mean "any of".
    expect(filterPairs('Patient', { name: 'a,b' })).toEqual([['name', 'a,b']]);
  });

  it('writes search-model filters with their prefix or modifier', () => {
    expect(
      filterPairs('Patient', {
        birthdate: { operator: 'eq', value: '2000' },
        'value-quantity': { operator: 'eq', value: 'ge5' },
        telecom: { operator: 'missing', value: 'true' },
        _lastUpdated: [{ operator: 'gt', value: '2024-01-01' }],
      }),
    ).toEqual([
      ['birthdate', '2000'],
      // A value that would read as a prefix gets an explicit eq.
      ['value-quantity', 'eqge5'],
      ['telecom:missing', 'true'],
      ['_lastUpdated', 'gt2024-01-01'],
    ]);
  });

  it('refuses values it cannot write: objects without an operator, mixed lists, a type filter without its type', () => {
    const refused = (filter: Record<string, unknown>) => {
      try {
        filterPairs('Patient', filter);
      } catch (error) {
        expect(error).toBeInstanceOf(HttpError);
        return (error as HttpError).message;
      }
      throw new Error('expected a refusal');
    };
    expect(refused({ name: { family: 'x' } })).toBe(
      'The filter on "name" has a value that is not text, a number or a list (name)',
    );
    expect(refused({ birthdate: [{ operator: 'ge', value: '1' }, '2'] })).toBe(
      'The filter on "birthdate" mixes operators and plain values (birthdate)',
    );
    expect(refused({ subject: { operator: 'type', value: '1' } })).toContain('needs a targetType');
  });

  it('the free-text box searches name on people and places, _content elsewhere', () => {
    expect(defaultTextSearchParameter('Practitioner')).toBe('name');
    expect(defaultTextSearchParameter('Organization')).toBe('name');
    expect(defaultTextSearchParameter('Observation')).toBe('_content');
  });
});

describe('sortParameter and listSearchQuery', () => {
  it('maps fields, keeps plain names, refuses paths', () => {
    expect(sortParameter('Patient', { field: 'id', order: 'ASC' })).toBe('_id');
    expect(sortParameter('Patient', { field: 'meta.lastUpdated', order: 'DESC' })).toBe('-_lastUpdated');
    expect(sortParameter('Patient', { field: 'family', order: 'ASC' })).toBe('family');
    expect(sortParameter('Patient', { field: '', order: 'ASC' })).toBeUndefined();
    expect(sortParameter('Patient', undefined)).toBeUndefined();
    expect(() => sortParameter('Patient', { field: 'name.family', order: 'ASC' })).toThrow(
      'Cannot sort Patient by "name.family"',
    );
  });

  it('pages from 1, defaults to 20 per page and an accurate total, and refuses an unknown total mode', () => {
    const { query, total } = listSearchQuery('Patient', {});
    expect([...query.entries()]).toEqual([
      ['_count', '20'],
      ['_offset', '0'],
      ['_total', 'accurate'],
    ]);
    expect(total).toBe('accurate');
    expect(listSearchQuery('Patient', {}, { defaultTotal: 'none' }).total).toBe('none');
    expect(() => listSearchQuery('Patient', { meta: { total: 'roughly' } })).toThrow('Invalid total mode "roughly"');
    const withIncludes = listSearchQuery('Observation', {
      meta: { include: ['Observation:subject'], revInclude: ['Provenance:target'], elements: ['id', 'status'] },
    }).query;
    expect(withIncludes.getAll('_include')).toEqual(['Observation:subject']);
    expect(withIncludes.getAll('_revinclude')).toEqual(['Provenance:target']);
    expect(withIncludes.get('_elements')).toBe('id,status');
  });
});

describe('records and actions', () => {
  it('toRecord mirrors lastUpdated; toResource removes it and sets type and id', () => {
    const record = toRecord({ resourceType: 'Patient', id: 'p', meta: { lastUpdated: 't' } });
    expect(record.lastUpdated).toBe('t');
    expect(toResource('Patient', record)).toEqual({ resourceType: 'Patient', id: 'p', meta: { lastUpdated: 't' } });
    expect(toResource('Patient', { ...record, id: 'other' }, 'p')).toMatchObject({ id: 'p' });
    expect(toResource('Patient', { id: '', gender: 'male' })).toEqual({ resourceType: 'Patient', gender: 'male' });
  });

  it('react-admin actions map to FHIR interactions; unknown ones read', () => {
    expect(['list', 'show', 'export', 'create', 'clone', 'edit', 'delete'].map(interactionOfAction)).toEqual([
      'search',
      'read',
      'search',
      'create',
      'create',
      'update',
      'delete',
    ]);
    expect(interactionOfAction('edit.field')).toBe('update');
    expect(interactionOfAction('something')).toBe('read');
  });
});
