import { queryFromString } from '../../server/fhir/fhirOperations';
import { definitionSearchParameters } from '../../server/serverRuntime';
import { parseSearchRequest } from '../../server/search/searchRequest';
import { buildWhere, SqlParams } from '../../server/search/searchSql';

/** The WHERE clause and parameters the server builds for a search (`Type?query`), with the base parameters. */
export function searchWhere(search: string): { sql: string; values: unknown[] } {
  const [resourceType, query = ''] = search.split('?', 2);
  const params = new SqlParams();
  const sql = buildWhere(
    parseSearchRequest(resourceType, queryFromString(query), definitionSearchParameters()),
    params,
    {},
  );
  return { sql, values: params.values };
}
