import { describe, expect, it } from 'vitest';
import { extractIndexRows, indexedReferenceTarget, normalizeSearchString } from './indexRows';
import type { SearchParamDefinition, SearchParamType } from './searchParameterRegistry';

/** A parameter whose expression yields `values` (the rows' shapes, not FHIRPath, are under test here). */
function parameter(code: string, type: SearchParamType, values: unknown[]): SearchParamDefinition {
  return { code, type, expression: `Any.${code}`, target: [], evaluate: () => values };
}

const coding = (system: string | undefined, code: string | undefined) => ({ system, code });

describe('index rows: repeats', () => {
  it("drops a parameter's repeated rows, keeping the first of each in order", () => {
    const rows = extractIndexRows({ resourceType: 'Any' }, [
      parameter('code', 'token', [
        { coding: [coding('s', 'a'), coding('s', 'b'), coding('s', 'a')] },
        { coding: [coding('s', 'b')], text: 'B' },
      ]),
    ]);
    expect(rows.token.map((r) => [r.system, r.value, r.display])).toEqual([
      ['s', 'a', null],
      ['s', 'b', null],
      [null, null, 'B'],
    ]);
  });

  it('keeps equal values of different parameters, and removes them across two parameters with one code', () => {
    const a = parameter('a', 'string', ['Same']);
    const b = parameter('b', 'string', ['Same']);
    expect(extractIndexRows({}, [a, b]).string.map((r) => r.code)).toEqual(['a', 'b']);
    const again = parameter('a', 'string', ['Same', 'Other']);
    expect(extractIndexRows({}, [a, b, again]).string.map((r) => `${r.code}:${r.value}`)).toEqual([
      'a:Same',
      'b:Same',
      'a:Other',
    ]);
  });

  it('tells apart values that only run together as text, and null from the text "null"', () => {
    // More than eight rows take the keyed path; fewer compare field by field: both are covered.
    for (const padding of [0, 12]) {
      const extra = Array.from({ length: padding }, (_, i) => coding('pad', String(i)));
      const rows = extractIndexRows({}, [
        parameter('code', 'token', [
          { coding: [...extra, coding('ab', 'c'), coding('a', 'bc'), coding('null', 'x'), coding(undefined, 'x')] },
          { coding: [coding('ab', 'c'), coding(undefined, 'x')] },
        ]),
      ]);
      expect(rows.token.slice(padding).map((r) => [r.system, r.value])).toEqual([
        ['ab', 'c'],
        ['a', 'bc'],
        ['null', 'x'],
        [null, 'x'],
      ]);
      expect(rows.token).toHaveLength(padding + 4);
    }
  });

  it('deduplicates every table: dates, numbers, quantities, references, uris and composites', () => {
    const composite: SearchParamDefinition = {
      ...parameter('code-value', 'composite', [
        { c: 'x', v: 1 },
        { c: 'x', v: 1 },
        { c: 'x', v: 2 },
      ]),
      components: [
        { definition: 'u-code', expression: 'c', itemPath: 'Any', evaluate: (item) => [(item as { c: string }).c] },
        { definition: 'u-value', expression: 'v', itemPath: 'Any', evaluate: (item) => [(item as { v: number }).v] },
      ],
    };
    const typeOfUrl = (url: string): SearchParamType | undefined =>
      url === 'u-code' ? 'token' : url === 'u-value' ? 'number' : undefined;
    const rows = extractIndexRows(
      {},
      [
        parameter('date', 'date', ['2020-01-01', { start: '2020-01-01', end: '2020-01-01' }, '2021']),
        parameter('n', 'number', [1, 1, 2, -0, 0]),
        parameter('q', 'quantity', [
          { value: 1, code: 'mg' },
          { value: 1, unit: 'mg' },
          { value: 1, code: 'g' },
        ]),
        parameter('r', 'reference', [{ reference: 'Patient/1' }, 'Patient/1', { reference: 'Patient/2' }]),
        parameter('u', 'uri', ['http://a', 'http://a']),
        composite,
      ],
      typeOfUrl,
    );
    expect(rows.date.map((r) => r.low)).toEqual(['2020-01-01T00:00:00.000Z', '2021-01-01T00:00:00.000Z']);
    // As in JSON, -0 and 0 are one value.
    expect(rows.number.map((r) => r.value)).toEqual([1, 2, -0]);
    expect(rows.quantity.map((r) => r.unit_code)).toEqual(['mg', 'g']);
    expect(rows.reference.map((r) => r.target_id)).toEqual(['1', '2']);
    expect(rows.uri).toHaveLength(1);
    expect(rows.composite.map((r) => r.components)).toEqual([
      [{ system: null, value: 'x', display: null }, { value: 1 }],
      [{ system: null, value: 'x', display: null }, { value: 2 }],
    ]);
  });
});

describe('normalizeSearchString', () => {
  it('lowers plain ASCII and strips accents from the rest', () => {
    expect(normalizeSearchString('MacDonald-Smith 42')).toBe('macdonald-smith 42');
    expect(normalizeSearchString('Ångström Œuvre ﬁ')).toBe('angstrom œuvre ﬁ');
  });
});

describe('index rows: reference targets', () => {
  const targetsOf = (...references: string[]) =>
    extractIndexRows({}, [
      parameter(
        'subject',
        'reference',
        references.map((reference) => ({ reference })),
      ),
    ]).reference.map((row) => [row.reference, row.target_type, row.target_id]);

  it("gives a relative reference this server's Type/id, and an absolute URL none: it names another server", () => {
    expect(
      targetsOf(
        'Patient/123',
        'Patient/123/_history/2',
        'Foo/1/Patient/2',
        'http://other.example/fhir/Patient/123',
        'https://other.example/fhir/R4/Patient/123/_history/2',
        'HTTP://OTHER.EXAMPLE/Patient/123',
        ' \thttp://other.example/fhir/Patient/123',
        '//other.example/fhir/Patient/123',
        '/other/fhir/Patient/123',
        'urn:uuid:6b7c1a3e-0000-4000-8000-000000000000',
        'urn:example:Patient/123',
        '#contained',
      ),
    ).toEqual([
      ['Patient/123', 'Patient', '123'],
      ['Patient/123/_history/2', 'Patient', '123'],
      ['Foo/1/Patient/2', 'Patient', '2'],
      ['http://other.example/fhir/Patient/123', null, null],
      ['https://other.example/fhir/R4/Patient/123/_history/2', null, null],
      ['HTTP://OTHER.EXAMPLE/Patient/123', null, null],
      [' \thttp://other.example/fhir/Patient/123', null, null],
      ['//other.example/fhir/Patient/123', null, null],
      ['/other/fhir/Patient/123', null, null],
      ['urn:uuid:6b7c1a3e-0000-4000-8000-000000000000', null, null],
      ['urn:example:Patient/123', null, null],
      ['#contained', null, null],
    ]);
  });

  it('indexedReferenceTarget, which searches by whole text rely on, agrees with the rows', () => {
    expect(indexedReferenceTarget('Patient/123/_history/2')).toEqual({ type: 'Patient', id: '123' });
    expect(indexedReferenceTarget('http://other.example/fhir/Patient/123')).toBeUndefined();
    expect(indexedReferenceTarget('http://example.org/Questionnaire/intake')).toBeUndefined();
  });
});
