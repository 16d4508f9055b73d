import { describe, expect, it } from 'vitest';
import { queryFromString } from '../fhir/fhirOperations';
import { ServerAddress } from '../fhir/serverAddress';
import { definitionSearchParameters } from '../serverRuntime';
import { withLocalReferenceValues } from './localReferenceValues';
import { parseSearchRequest, type SearchRequest } from './searchRequest';

const server = new ServerAddress('https://emr.example/');
const localFormOf = (reference: string) => server.localForm(reference);

function request(search: string): SearchRequest {
  const [resourceType, query = ''] = search.split('?', 2);
  return parseSearchRequest(resourceType, queryFromString(query), definitionSearchParameters());
}

/** Each filter's values, the inner filter's for a chain or _has. */
function valuesOf(search: SearchRequest): string[][] {
  return search.filters.map((filter) => (filter.kind === 'value' ? filter.values : filter.filter.values));
}

describe('reference search values naming this server', () => {
  it("are searched for in their stored, relative form; another server's stay whole", () => {
    const local = withLocalReferenceValues(
      request(
        'Observation?subject=https://emr.example/fhir/R4/Patient/1,http://other.example/fhir/R4/Patient/1' +
          '&performer=Practitioner/2&_has:Provenance:target:agent=https://EMR.example/fhir/R4/Device/3' +
          '&subject:Patient.general-practitioner=https://emr.example/fhir/R4/Practitioner/4&code=https://emr.example/fhir/R4/Patient/5',
      ),
      localFormOf,
    );
    expect(valuesOf(local)).toEqual([
      ['Patient/1', 'http://other.example/fhir/R4/Patient/1'],
      ['Practitioner/2'],
      ['Device/3'],
      ['Practitioner/4'],
      // Not a reference parameter: a token's text is its own.
      ['https://emr.example/fhir/R4/Patient/5'],
    ]);
  });

  it('leave a request without one as it is', () => {
    const plain = request('Observation?subject=Patient/1&code=http://loinc.org|1234-5');
    expect(withLocalReferenceValues(plain, localFormOf)).toBe(plain);
  });
});
