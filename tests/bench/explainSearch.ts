// Prints PostgreSQL's plan for a FHIR search, as the server would run it:
//   npx tsx tests/bench/explainSearch.ts postgres://…/db 'Task?patient=Patient/123&_sort=-_lastUpdated'
// A tool for tuning indexes against a database filled by `npm run bench`.
import pg from 'pg';
import { queryFromString } from '../../server/fhir/fhirOperations';
import { definitionSearchParameters } from '../../server/serverRuntime';
import { parseSearchRequest } from '../../server/search/searchRequest';
import { buildOrderBy, buildWhere, SqlParams } from '../../server/search/searchSql';

const [databaseUrl, search] = process.argv.slice(2);
if (!databaseUrl || !search) {
  console.error('Usage: npx tsx tests/bench/explainSearch.ts <DATABASE_URL> "<Type>?<query>"');
  process.exit(2);
}
const [resourceType, queryString = ''] = search.split('?', 2);
const request = parseSearchRequest(resourceType, queryFromString(queryString), definitionSearchParameters());
const params = new SqlParams();
const where = buildWhere(request, params, {});
const orderBy = buildOrderBy(request.sort, params);
const sql = `SELECT r.content FROM resources r WHERE ${where} ORDER BY ${orderBy} LIMIT ${request.count + 1} OFFSET ${request.offset}`;
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params.values);
console.log(sql, '\n', params.values);
for (const row of plan.rows) console.log(row['QUERY PLAN']);
await client.end();
