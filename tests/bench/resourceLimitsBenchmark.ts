import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { benchHeaders } from './benchFetch';
import { startBenchServer } from './benchServer';
import { defaultResourceLimits as limits } from '../../server/validation/resourceLimits';
import {
  bytesAtLimit,
  elementsAtLimit,
  everyLimitAtOnce,
  indexValuesAtLimit,
  jsonBytes,
  manyNames,
  stringAtLimit,
} from '../../server/validation/resourceLimits.test-support';

/**
 * What one large write costs the server, and every other request meanwhile (the outside tester's
 * denial of service: one Patient with 200,000 names stalled every project for 108 s).
 *
 *   npx tsx tests/bench/resourceLimitsBenchmark.ts [postgres://… of an empty database]
 *
 * Part 1 runs the server from its sources (embedded PGlite, or the native database given) and
 * writes, each BENCH_RL_ROUNDS times (3), the attack and resources exactly at each default limit of
 * server/validation/resourceLimits.ts, while another request reads a small Patient every 25 ms: the
 * table gives the write's median time and the longest any of those reads waited. Part 2 is the
 * cause, measured without the clock: the database pages one INSERT of a single resource's index
 * rows touches (`EXPLAIN (ANALYZE, BUFFERS)` on PGlite), with the hash index on `resource_id` every
 * index table has (storage/migrations.ts) against a b-tree — one resource's rows share one hash
 * bucket whose overflow chain every insert walks.
 */

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
const rounds = Number(process.env.BENCH_RL_ROUNDS ?? 3);

interface Case {
  name: string;
  resource: Record<string, unknown>;
}

const cases: Case[] = [
  { name: 'attack: Patient, 200,000 names (4 MB)', resource: manyNames(200_000) },
  { name: 'Patient, 50,000 names (1 MB)', resource: manyNames(50_000) },
  { name: `index values at the limit (${limits.maxIndexValues})`, resource: indexValuesAtLimit(limits) },
  { name: 'index values, one over', resource: indexValuesAtLimit(limits, 'K', 1) },
  { name: `elements at the limit (${limits.maxElements})`, resource: elementsAtLimit(limits) },
  { name: `bytes at the limit (${limits.maxBytes}, inline data)`, resource: bytesAtLimit(limits) },
  { name: `one string at the limit (${limits.maxStringLength})`, resource: stringAtLimit(limits) },
  { name: 'every limit at once', resource: everyLimitAtOnce(limits) },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timedWrite(baseUrl: string, resource: Record<string, unknown>, readUrl: string) {
  const body = JSON.stringify(resource);
  let writing = true;
  let longestRead = 0;
  const reader = (async () => {
    while (writing) {
      const started = performance.now();
      const response = await fetch(readUrl, { headers: benchHeaders() });
      await response.arrayBuffer();
      longestRead = Math.max(longestRead, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${baseUrl}fhir/R4/${String(resource.resourceType)}`, {
    method: 'POST',
    headers: { ...benchHeaders(), 'content-type': 'application/fhir+json' },
    body,
  });
  const answer = await response.text();
  const ms = performance.now() - started;
  writing = false;
  await reader;
  return { status: response.status, ms, longestRead, answer, bytes: Buffer.byteLength(body) };
}

async function httpPart(databaseUrl: string | undefined): Promise<string[]> {
  const server = await startBenchServer(root, databaseUrl, { fromSources: true });
  try {
    const headers = { ...benchHeaders(), 'content-type': 'application/fhir+json' };
    const small = await fetch(`${server.baseUrl}fhir/R4/Patient`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ resourceType: 'Patient', name: [{ family: 'Reader' }] }),
    });
    const readUrl = `${server.baseUrl}fhir/R4/Patient/${((await small.json()) as { id: string }).id}`;
    // Warm up the validators and the statements of every resource type used.
    for (const { resource } of cases) {
      const type = String(resource.resourceType);
      await fetch(`${server.baseUrl}fhir/R4/${type}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(type === 'Patient' ? manyNames(10) : { ...resource, extension: [], content: undefined }),
      });
    }
    const lines = [
      `Server from sources on ${databaseUrl ? 'native PostgreSQL' : 'embedded PGlite'}; ${rounds} rounds each, median.`,
      '',
      '| write | JSON bytes | status | write ms | longest concurrent read ms |',
      '| --- | ---: | ---: | ---: | ---: |',
    ];
    for (const { name, resource } of cases) {
      const results = [];
      for (let round = 0; round < rounds; round++) results.push(await timedWrite(server.baseUrl, resource, readUrl));
      const statuses = [...new Set(results.map((r) => r.status))].join('/');
      lines.push(
        `| ${name} | ${results[0].bytes} | ${statuses} | ${median(results.map((r) => r.ms)).toFixed(0)} | ${median(results.map((r) => r.longestRead)).toFixed(0)} |`,
      );
      console.log(lines.at(-1));
      const refused = results.find((r) => r.status >= 400);
      if (refused) console.log(`    ${refused.answer.slice(0, 240)}`);
    }
    return lines;
  } finally {
    await server.stop();
  }
}

/** Pages touched by one INSERT of `rows` index rows of a single resource (PGlite, deterministic). */
async function pagesPart(): Promise<string[]> {
  const db = new PGlite();
  const lines = [
    '',
    '| index rows of one resource | hash index: pages touched | b-tree: pages touched |',
    '| ---: | ---: | ---: |',
  ];
  for (const rows of [2_500, 5_000, 10_000, 20_000, 40_000]) {
    const hits: Record<string, string> = {};
    for (const kind of ['hash', 'btree']) {
      await db.exec(`DROP TABLE IF EXISTS rows_bench;
        CREATE TABLE rows_bench (resource_type text, resource_id text, code text, value text);
        CREATE INDEX ON rows_bench USING ${kind} (resource_id);`);
      const plan = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF)
         INSERT INTO rows_bench SELECT 'Patient', 'one-resource', 'name', 'v' || g FROM generate_series(1, ${rows}) g`,
      );
      hits[kind] = /shared hit=(\d+)/.exec(plan.rows.map((row) => row['QUERY PLAN']).join('\n'))?.[1] ?? '?';
    }
    lines.push(`| ${rows} | ${hits.hash} | ${hits.btree} |`);
    console.log(lines.at(-1));
  }
  await db.close();
  return lines;
}

async function main(): Promise<void> {
  console.log(`Limits: ${JSON.stringify(limits)}; every-limit resource: ${jsonBytes(everyLimitAtOnce(limits))} bytes`);
  const lines = [...(await httpPart(process.argv[2])), ...(await pagesPart())];
  console.log(`\n${lines.join('\n')}`);
}

await main();
