import { describe, expect, it } from 'vitest';
import { formatDate } from '../../data-provider/formatting';
import {
  globalSearchQuery,
  hitDetail,
  hitIdentifier,
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

  it('asks for every word of a full name (name=wendy&name=littel), and still for the whole text as an identifier', () => {
    const { query, variables } = globalSearchQuery(' wendy \t littel ');
    expect(variables).toEqual({ text: 'wendy \t littel', names: 'name sw "wendy" and name sw "littel"' });
    expect(query).toContain('query GlobalSearch($text: String!, $names: String!)');
    expect(query).toContain('PatientList(_filter: $names, _count: 5)');
    expect(query).not.toContain('name: $text');
    expect(query).toContain('PatientList(identifier: $text, _count: 5)');
    expect(query).toContain('ServiceRequestList(identifier: $text, _count: 5)');
  });

  it('quotes each word of the name filter, so a quote or backslash typed stays part of the word', () => {
    expect(globalSearchQuery('o"neil a\\b').variables.names).toBe('name sw "o\\"neil" and name sw "a\\\\b"');
  });

  it('asks for the identifier type, which tells a medical record number', () => {
    expect(globalSearchQuery('smith').query).toContain(
      'identifier { system value type { coding { system code } text } }',
    );
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
    expect(hitDetail(patient('a', 'Anna', 'Marsh', 'MRN-1'))).toBe(`${formatDate('1980-02-03')} · MRN-1`);
    expect(hitTitle(order('s', 'Zed Young', 'LAB-1'))).toBe('Zed Young');
    expect(hitDetail(order('s', 'Zed Young', 'LAB-1'))).toBe('Service request · LAB-1');
    expect(hitTitle({ resourceType: 'ServiceRequest', id: 'x' })).toBe('ServiceRequest/x');
  });

  it('shows the birth date as the lists show dates, not as the FHIR value', () => {
    const detail = hitDetail({ resourceType: 'Patient', id: 'w', birthDate: '2000-11-15' });
    expect(detail).toBe(formatDate('2000-11-15'));
    expect(detail).not.toContain('2000-11-15');
  });

  const MR = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] };
  const SS = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'SS' }], text: 'SSN' };
  const uuid = 'b8d5f1a2-6c1e-4a5b-9f3e-2d7c8e9a0b1c';

  it('prefers the medical record number (type MR) over the other identifiers', () => {
    const hit: SearchHit = {
      resourceType: 'Patient',
      id: 'w',
      identifier: [
        { system: 'urn:clinic', value: 'C-9' },
        { system: 'urn:mrn', value: '000123', type: MR },
      ],
    };
    expect(hitIdentifier(hit)).toBe('MRN: 000123');
  });

  it('never shows a UUID-looking value, even typed MR (Synthea), nor a patient’s other typed identifiers', () => {
    const synthea: SearchHit = {
      resourceType: 'Patient',
      id: 'w',
      identifier: [
        { system: 'https://github.com/synthetichealth/synthea', value: uuid },
        { system: 'http://hospital.smarthealthit.org', value: uuid, type: MR },
        { system: 'http://hl7.org/fhir/sid/us-ssn', value: '999-12-3456', type: SS },
      ],
      birthDate: '2000-11-15',
    };
    expect(hitIdentifier(synthea)).toBe('');
    expect(hitDetail(synthea)).toBe(formatDate('2000-11-15'));
    expect(
      hitIdentifier({ resourceType: 'ServiceRequest', id: 's', identifier: [{ value: uuid }, { value: 'LAB-2' }] }),
    ).toBe('LAB-2');
  });
});
