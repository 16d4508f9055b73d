import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  dropNulls,
  graphqlSchemaSource,
  SEARCH_PARAMETER_QUERY,
  structureDefinitionQuery,
  type GraphqlClient,
} from './graphqlSchemaSource';

function fakeClient(
  answer: (query: string, variables: Record<string, unknown>) => unknown,
): GraphqlClient & { calls: { operationName?: string; variables?: Record<string, unknown> }[] } {
  const calls: { operationName?: string; variables?: Record<string, unknown> }[] = [];
  return {
    calls,
    async graphql<T>(query: string, operationName?: string, variables?: Record<string, unknown>) {
      calls.push({ operationName, variables });
      return answer(query, variables ?? {}) as { data?: T };
    },
  };
}

describe('graphqlSchemaSource', () => {
  it('asks StructureDefinitionList by url, newest first, count 1, several urls in one query', async () => {
    let seen = '';
    const client = fakeClient((query) => {
      seen = query;
      return {
        data: {
          sd0: [
            {
              resourceType: 'StructureDefinition',
              url: 'u0',
              name: 'A',
              title: null,
              snapshot: {
                element: [
                  { i: 'A', n: 0, x: '*', fu: null, k: [] },
                  { i: 'A.id', t: [{ c: 'http://hl7.org/fhirpath/System.String', p: null }] },
                  { i: 'A.extension:race.url', x: '1', fu: 'http://race', pcc: null, b: { x: '1' } },
                ],
              },
            },
          ],
          sd1: [],
        },
      };
    });
    const found = await graphqlSchemaSource(client).structureDefinitions(['u0', 'u1']);
    expect(() => parse(seen)).not.toThrow();
    expect(seen).toContain('fu: fixedUri');
    expect(seen).toContain('pcc: patternCodeableConcept { c: coding { s: system c: code d: display } t: text }');
    expect(seen).toContain('sd0: StructureDefinitionList(url: $url0, _sort: "-_lastUpdated", _count: 1)');
    expect(seen).toContain('sd1: StructureDefinitionList(url: $url1');
    expect(client.calls[0]).toEqual({
      operationName: 'StructureDefinitionList',
      variables: { url0: 'u0', url1: 'u1' },
    });
    // GraphQL nulls are dropped: FHIR JSON has none.
    // Aliases are turned back into FHIR names, nulls dropped, path and sliceName recovered from id.
    expect(found).toEqual([
      {
        resourceType: 'StructureDefinition',
        url: 'u0',
        name: 'A',
        snapshot: {
          element: [
            { id: 'A', path: 'A', min: 0, max: '*' },
            {
              id: 'A.id',
              path: 'A.id',
              type: [
                {
                  code: 'http://hl7.org/fhirpath/System.String',
                },
              ],
            },
            {
              id: 'A.extension:race.url',
              path: 'A.extension.url',
              max: '1',
              fixedUri: 'http://race',
              base: { max: '1' },
            },
          ],
        },
      },
      undefined,
    ]);
  });

  it('pages SearchParameterList by base with _count and _offset', async () => {
    const client = fakeClient(() => ({
      data: { SearchParameterList: [{ code: 'name', type: 'string', target: null }] },
    }));
    const page = await graphqlSchemaSource(client).searchParameters(['Patient', 'Resource'], 100, 100);
    expect(() => parse(SEARCH_PARAMETER_QUERY)).not.toThrow();
    expect(client.calls[0]).toEqual({
      operationName: 'SearchParameterList',
      variables: { base: 'Patient,Resource', count: 100, offset: 100 },
    });
    expect(page).toEqual([{ code: 'name', type: 'string' }]);
  });

  it('turns GraphQL errors into a rejection with their messages', async () => {
    const client = fakeClient(() => ({ errors: [{ message: 'Cannot query field "x"' }] }));
    await expect(graphqlSchemaSource(client).structureDefinitions(['u'])).rejects.toThrow('Cannot query field "x"');
    expect(structureDefinitionQuery(0)).toContain('StructureDefinitionList');
  });

  it('dropNulls removes nulls and empty lists at every depth', () => {
    expect(dropNulls({ a: null, b: [null, { c: null, d: 1 }], e: [] })).toEqual({ b: [{ d: 1 }] });
  });
});
