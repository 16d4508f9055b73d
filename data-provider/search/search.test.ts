import { describe, expect, it } from 'vitest';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import {
  DEFAULT_SEARCH_COUNT,
  formatFilter,
  formatSearchQuery,
  formatSearchRequest,
  isSearchDateValue,
  Operator,
  parseIncludeTarget,
  parseSearchParams,
  parseSearchRequest,
  type SearchRequest,
  validateIncludeTarget,
} from './index';

function thrown(run: () => unknown): OperationOutcomeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OperationOutcomeError);
    return error as OperationOutcomeError;
  }
  throw new Error('expected an error');
}

describe('constants', () => {
  it('default page size is 20', () => {
    expect(DEFAULT_SEARCH_COUNT).toBe(20);
  });
});

describe('parseSearchRequest', () => {
  it('reads the resource type from "Type?query", a path or a full URL', () => {
    expect(parseSearchRequest('Patient').resourceType).toBe('Patient');
    expect(parseSearchRequest('Patient?name=eve').resourceType).toBe('Patient');
    expect(parseSearchRequest('/fhir/R4/Observation?code=x').resourceType).toBe('Observation');
    expect(parseSearchRequest(new URL('https://ehr.example/fhir/R4/Encounter?_count=5')).resourceType).toBe(
      'Encounter',
    );
  });

  it('refuses a missing or malformed resource type', () => {
    expect(thrown(() => parseSearchRequest('?name=x')).message).toContain('Invalid resource type');
    expect(thrown(() => parseSearchRequest('patient?name=x')).status).toBe(400);
  });

  it('parses plain filters with EQUALS, and keeps repeated keys as separate filters', () => {
    expect(parseSearchRequest('Patient?name=eve&name=adams&gender=female,other').filters).toEqual([
      { code: 'name', operator: Operator.EQUALS, value: 'eve' },
      { code: 'name', operator: Operator.EQUALS, value: 'adams' },
      { code: 'gender', operator: Operator.EQUALS, value: 'female,other' },
    ]);
  });

  it('parses every prefix before numbers and dates', () => {
    const prefixes: [string, Operator][] = [
      ['eq', Operator.EQUALS],
      ['ne', Operator.NOT_EQUALS],
      ['gt', Operator.GREATER_THAN],
      ['lt', Operator.LESS_THAN],
      ['ge', Operator.GREATER_THAN_OR_EQUALS],
      ['le', Operator.LESS_THAN_OR_EQUALS],
      ['sa', Operator.STARTS_AFTER],
      ['eb', Operator.ENDS_BEFORE],
      ['ap', Operator.APPROXIMATELY],
    ];
    for (const [prefix, operator] of prefixes) {
      expect(parseSearchRequest(`Observation?value-quantity=${prefix}5.4`).filters?.[0]).toEqual({
        code: 'value-quantity',
        operator,
        value: '5.4',
      });
    }
    expect(parseSearchRequest('Patient?birthdate=ge2000-01-01').filters?.[0]).toEqual({
      code: 'birthdate',
      operator: Operator.GREATER_THAN_OR_EQUALS,
      value: '2000-01-01',
    });
  });

  it('does not read a prefix out of words', () => {
    expect(parseSearchRequest('Patient?name=eben').filters?.[0]).toEqual({
      code: 'name',
      operator: Operator.EQUALS,
      value: 'eben',
    });
  });

  it('parses every modifier', () => {
    for (const modifier of [
      'not',
      'contains',
      'exact',
      'text',
      'missing',
      'above',
      'below',
      'in',
      'not-in',
      'of-type',
      'identifier',
    ]) {
      const filter = parseSearchRequest(`Patient?code:${modifier}=true`).filters?.[0];
      expect(filter).toEqual({ code: 'code', operator: modifier, value: 'true' });
    }
  });

  it('parses a type modifier into Operator.TYPE with the target type', () => {
    expect(parseSearchRequest('Observation?subject:Patient=123').filters?.[0]).toEqual({
      code: 'subject',
      operator: Operator.TYPE,
      value: '123',
      targetType: 'Patient',
    });
  });

  it('refuses unknown modifiers', () => {
    expect(thrown(() => parseSearchRequest('Patient?name:fuzzy=x')).message).toBe(
      'Unknown search modifier ":fuzzy" on "name" (name:fuzzy)',
    );
  });

  it('keeps chains and _has keys whole', () => {
    expect(
      parseSearchRequest('Observation?subject:Patient.name=eve&_has:Observation:patient:code=1234').filters,
    ).toEqual([
      { code: 'subject:Patient.name', operator: Operator.EQUALS, value: 'eve' },
      { code: '_has:Observation:patient:code', operator: Operator.EQUALS, value: '1234' },
    ]);
  });

  it('parses the result parameters', () => {
    const request = parseSearchRequest(
      'Observation?_sort=-date,code&_count=10&_offset=30&_total=accurate&_cursor=abc&_summary=count&_elements=id,code',
    );
    expect(request).toEqual({
      resourceType: 'Observation',
      sortRules: [
        { code: 'date', descending: true },
        { code: 'code', descending: false },
      ],
      count: 10,
      offset: 30,
      total: 'accurate',
      cursor: 'abc',
      summary: 'count',
      fields: ['id', 'code'],
    });
    expect(parseSearchRequest('Patient?_fields=name').fields).toEqual(['name']);
    expect(parseSearchRequest('Patient?fields=name,birthDate').fields).toEqual(['name', 'birthDate']);
  });

  it('refuses malformed result parameters', () => {
    expect(thrown(() => parseSearchRequest('Patient?_count=ten')).message).toContain('expected a whole number');
    expect(thrown(() => parseSearchRequest('Patient?_offset=-1')).message).toContain('_offset');
    expect(thrown(() => parseSearchRequest('Patient?_total=all')).message).toContain('_total');
    expect(thrown(() => parseSearchRequest('Patient?_summary=yes')).message).toContain('_summary');
  });

  it('parses includes and revincludes, with :iterate', () => {
    const request = parseSearchRequest(
      'MedicationRequest?_include=MedicationRequest:patient&_include:iterate=Patient:general-practitioner:Practitioner&_revinclude=Provenance:target',
    );
    expect(request.include).toEqual([
      { resourceType: 'MedicationRequest', searchParam: 'patient' },
      {
        resourceType: 'Patient',
        searchParam: 'general-practitioner',
        targetType: 'Practitioner',
        modifier: Operator.ITERATE,
      },
    ]);
    expect(request.revInclude).toEqual([{ resourceType: 'Provenance', searchParam: 'target' }]);
  });

  it('refuses other include modifiers', () => {
    expect(thrown(() => parseSearchRequest('Patient?_include:recurse=Patient:link')).message).toContain(
      'only :iterate',
    );
  });

  it('parses a record of parameters', () => {
    expect(
      parseSearchParams('Patient', { name: 'eve', _count: 5, active: true, gender: ['a', 'b'], x: undefined }),
    ).toEqual({
      resourceType: 'Patient',
      filters: [
        { code: 'name', operator: Operator.EQUALS, value: 'eve' },
        { code: 'active', operator: Operator.EQUALS, value: 'true' },
        { code: 'gender', operator: Operator.EQUALS, value: 'a' },
        { code: 'gender', operator: Operator.EQUALS, value: 'b' },
      ],
      count: 5,
    });
  });
});

describe('include validation', () => {
  it('accepts ResourceType:search-param[:target]', () => {
    expect(parseIncludeTarget('Observation:subject')).toEqual({ resourceType: 'Observation', searchParam: 'subject' });
    expect(parseIncludeTarget('Observation:subject:Patient', true)).toEqual({
      resourceType: 'Observation',
      searchParam: 'subject',
      targetType: 'Patient',
      modifier: Operator.ITERATE,
    });
  });

  it("rejects '*' with a clear error", () => {
    const error = thrown(() => parseSearchRequest('Patient?_include=*'));
    expect(error.message).toContain("'*' is not supported");
    expect(error.status).toBe(400);
    expect(thrown(() => parseIncludeTarget('Observation:*')).message).toContain("'*' is not supported");
    expect(
      thrown(() => validateIncludeTarget({ resourceType: 'Observation', searchParam: '*' }, '_revinclude')).message,
    ).toContain('Invalid _revinclude "Observation:*"');
  });

  it('rejects other shapes', () => {
    expect(thrown(() => parseIncludeTarget('subject')).message).toContain('expected ResourceType:search-param');
    expect(thrown(() => parseIncludeTarget('observation:subject')).message).toContain('expected ResourceType');
    expect(thrown(() => parseIncludeTarget('Observation:subject:patient')).message).toContain('target type');
    expect(thrown(() => parseIncludeTarget('A:b:C:d')).message).toContain('expected ResourceType');
    expect(thrown(() => parseIncludeTarget('Observation:')).message).toContain('expected ResourceType');
  });
});

describe('date values', () => {
  it('accepts FHIR search dates', () => {
    for (const value of [
      '2020',
      '2020-02',
      '2020-02-29',
      '2020-02-29T10:30',
      '2020-02-29T10:30:15',
      '2020-02-29T10:30:15.123Z',
      '2020-02-29T10:30:15+01:00',
    ]) {
      expect(isSearchDateValue(value), value).toBe(true);
    }
  });

  it('rejects malformed dates', () => {
    for (const value of ['20', '2020-13', '2020-02-30x', 'yesterday', '2020-1-1', '2020-02-29T25:00', '']) {
      expect(isSearchDateValue(value), value).toBe(false);
    }
  });

  it('checks values of date parameters after the prefix, each of a comma list', () => {
    expect(parseSearchRequest('Patient?birthdate=lt2000-01-01,2010').filters?.[0].value).toBe('2000-01-01,2010');
    const error = thrown(() => parseSearchRequest('Patient?birthdate=ge2000-01-01,soon'));
    expect(error.message).toContain('Invalid date "soon" for search parameter "birthdate"');
    expect(error.outcome.issue[0].expression).toEqual(['birthdate']);
    expect(thrown(() => parseSearchRequest('Patient?_lastUpdated=gtlast-week')).status).toBe(400);
  });

  it('does not check :missing or non-date parameters', () => {
    expect(parseSearchRequest('Patient?birthdate:missing=true').filters?.[0].operator).toBe(Operator.MISSING);
    expect(parseSearchRequest('Patient?name=2020-99').filters?.[0].value).toBe('2020-99');
  });

  it('uses the given date-parameter lookup', () => {
    const isDateParameter = (type: string, code: string) => type === 'Appointment' && code === 'slot-start';
    expect(() => parseSearchRequest('Appointment?slot-start=tomorrow', { isDateParameter })).toThrow('Invalid date');
    expect(parseSearchRequest('Appointment?date=whenever', { isDateParameter }).filters?.[0].value).toBe('whenever');
  });

  it('checks dates when formatting too', () => {
    expect(() =>
      formatSearchQuery({
        resourceType: 'Patient',
        filters: [{ code: 'birthdate', operator: Operator.EQUALS, value: 'June' }],
      }),
    ).toThrow('Invalid date "June"');
  });
});

describe('formatSearchQuery', () => {
  it('is empty for a bare request and starts with ? otherwise', () => {
    expect(formatSearchQuery({ resourceType: 'Patient' })).toBe('');
    expect(formatSearchQuery({ resourceType: 'Patient', count: 20 })).toBe('?_count=20');
    expect(formatSearchRequest({ resourceType: 'Patient', count: 20 })).toBe('Patient?_count=20');
  });

  it('writes modifiers after the code and prefixes before the value', () => {
    expect(formatFilter({ code: 'name', operator: Operator.CONTAINS, value: 'ev' })).toEqual(['name:contains', 'ev']);
    expect(formatFilter({ code: 'date', operator: Operator.LESS_THAN, value: '2020' })).toEqual(['date', 'lt2020']);
    expect(formatFilter({ code: 'subject', operator: Operator.TYPE, value: '1', targetType: 'Patient' })).toEqual([
      'subject:Patient',
      '1',
    ]);
    expect(formatFilter({ code: 'code', operator: Operator.NOT_IN, value: 'http://vs' })).toEqual([
      'code:not-in',
      'http://vs',
    ]);
  });

  it('escapes an EQUALS value that would read as a prefix', () => {
    expect(formatFilter({ code: 'identifier', operator: Operator.EQUALS, value: 'le123' })).toEqual([
      'identifier',
      'eqle123',
    ]);
    const back = parseSearchRequest(
      formatSearchRequest({
        resourceType: 'Patient',
        filters: [{ code: 'identifier', operator: Operator.EQUALS, value: 'le123' }],
      }),
    );
    expect(back.filters?.[0]).toEqual({ code: 'identifier', operator: Operator.EQUALS, value: 'le123' });
  });

  it('refuses a type filter without target and iterate on a filter', () => {
    expect(() => formatFilter({ code: 'subject', operator: Operator.TYPE, value: '1' })).toThrow('needs a targetType');
    expect(() => formatFilter({ code: 'subject', operator: Operator.ITERATE, value: '1' })).toThrow('cannot be used');
  });

  it("refuses '*' includes", () => {
    expect(() =>
      formatSearchQuery({ resourceType: 'Patient', include: [{ resourceType: '*', searchParam: 'x' }] }),
    ).toThrow("'*' is not supported");
  });

  it('encodes values but keeps FHIR punctuation readable', () => {
    expect(
      formatSearchQuery({
        resourceType: 'Observation',
        filters: [
          { code: 'code', operator: Operator.EQUALS, value: 'http://loinc.org|8867-4' },
          { code: 'note', operator: Operator.CONTAINS, value: 'a&b c+d' },
          { code: 'date', operator: Operator.GREATER_THAN, value: '2020-01-01T00:00:00+01:00' },
        ],
      }),
    ).toBe('?code=http://loinc.org|8867-4&note:contains=a%26b%20c%2Bd&date=gt2020-01-01T00:00:00%2B01:00');
  });

  it('round-trips a canonical query string', () => {
    const canonical =
      'Observation?subject:Patient=123&code:not=x&value-quantity=ge5&date=lt2020-02&status=final,amended&_sort=-date,code&_count=20&_offset=40&_cursor=c1&_total=estimate&_summary=data&_elements=id,code&_include=Observation:subject:Patient&_include:iterate=Patient:organization&_revinclude=Provenance:target';
    expect(formatSearchRequest(parseSearchRequest(canonical))).toBe(canonical);
  });

  it('round-trips a search request', () => {
    const request: SearchRequest = {
      resourceType: 'Patient',
      filters: [
        { code: 'name', operator: Operator.EXACT, value: 'Eve Adams' },
        { code: 'birthdate', operator: Operator.ENDS_BEFORE, value: '2000-01-01' },
        { code: 'general-practitioner', operator: Operator.TYPE, value: 'p1', targetType: 'Practitioner' },
        { code: 'identifier', operator: Operator.OF_TYPE, value: 'http://sys|MR|123' },
        { code: 'address', operator: Operator.MISSING, value: 'false' },
      ],
      sortRules: [{ code: 'family', descending: false }],
      count: DEFAULT_SEARCH_COUNT,
      offset: 0,
      total: 'accurate',
      include: [{ resourceType: 'Patient', searchParam: 'organization' }],
      revInclude: [{ resourceType: 'Encounter', searchParam: 'subject', modifier: Operator.ITERATE }],
      fields: ['name', 'birthDate'],
    };
    expect(parseSearchRequest(formatSearchRequest(request))).toEqual(request);
  });
});
