import { describe, expect, it } from 'vitest';
import {
  globalSearchQuery,
  hitDetail,
  hitTitle,
  looksLikeId,
  matchPosition,
  rankSearchHits,
  type SearchHit,
} from './globalSearch';

const patient = (id: string, given: string, family: string, mrn?: string): SearchHit => ({
  resourceType: 'Patient',
  id,
  name: [{ given: [given], family }],
  ...(mrn ? { identifier: [{ system: 'urn:mrn', value: mrn }] } : {}),
  birthDate: '1980-02-03',
});
const order = (id: string, display: string, value: string): SearchHit => ({
  resourceType: 'ServiceRequest',
  id,
  identifier: [{ value }],
  subject: { display },
});

describe('looksLikeId and the query', () => {
  it('treats a UUID as an id, with one result per list', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(looksLikeId(` ${id} `)).toBe(true);
    const { query, variables } = globalSearchQuery(id);
    expect(variables).toEqual({ id });
    expect(query).toContain('PatientList(_id: $id, _count: 1)');
    expect(query).toContain('ServiceRequestList(_id: $id, _count: 1)');
    expect(query).not.toContain('name: $text');
  });

  it('searches names and identifiers, five each, for other text', () => {
    expect(looksLikeId('smith')).toBe(false);
    expect(looksLikeId('0f8fad5b-d9cb-469f')).toBe(false);
    const { query, variables } = globalSearchQuery(' smith ');
    expect(variables).toEqual({ text: 'smith' });
    expect(query).toContain('PatientList(name: $text, _count: 5)');
    expect(query).toContain('PatientList(identifier: $text, _count: 5)');
    expect(query).toContain('ServiceRequestList(identifier: $text, _count: 5)');
    for (const field of ['resourceType', 'id', 'identifier', 'name', 'birthDate', 'subject { display }']) {
      expect(query).toContain(field);
    }
  });
});

describe('rankSearchHits', () => {
  it('puts the earliest match first and keeps list order on ties', () => {
    const hits = rankSearchHits(
      [[patient('a', 'Anna', 'Marsh'), patient('b', 'Mar', 'Jones'), patient('c', 'Lea', 'Smar')]],
      'mar',
    );
    // 'Mar Jones' (0), 'Anna Marsh' (5), 'Lea Smar' (5: after 'Anna Marsh' in the list).
    expect(hits.map((hit) => hit.id)).toEqual(['b', 'a', 'c']);
  });

  it('matches identifiers and subject displays, case-insensitively, and puts non-matches last', () => {
    const hits = rankSearchHits(
      [[patient('p1', 'Zed', 'Young')], [order('s1', 'Zed Young', 'LAB-77')], [patient('p2', 'Ann', 'Lee', 'lab-7')]],
      'LAB-7',
    );
    expect(hits.map((hit) => hit.id)).toEqual(['s1', 'p2', 'p1']);
    expect(matchPosition(patient('p1', 'Zed', 'Young'), 'lab')).toBe(Infinity);
  });

  it('removes duplicates by id, keeping the first, and cuts to five', () => {
    const many = ['1', '2', '3', '4', '5', '6'].map((id) => patient(id, 'Kim', `Doe${id}`));
    const hits = rankSearchHits([many.slice(0, 3), many, null, undefined], 'kim');
    expect(hits.map((hit) => hit.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(rankSearchHits([[], null], 'kim')).toEqual([]);
  });
});

describe('suggestion labels', () => {
  it('shows a patient by name with birth date and identifier, an order by its subject', () => {
    expect(hitTitle(patient('a', 'Anna', 'Marsh', 'MRN-1'))).toBe('Anna Marsh');
    expect(hitDetail(patient('a', 'Anna', 'Marsh', 'MRN-1'))).toBe('1980-02-03 · MRN-1');
    expect(hitTitle(order('s', 'Zed Young', 'LAB-1'))).toBe('Zed Young');
    expect(hitDetail(order('s', 'Zed Young', 'LAB-1'))).toBe('Service request · LAB-1');
    expect(hitTitle({ resourceType: 'ServiceRequest', id: 'x' })).toBe('ServiceRequest/x');
  });
});
