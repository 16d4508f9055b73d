import { benchFetch, benchHeaders } from './benchFetch';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planFile, type ImportRequest } from '../../server/import/importPlan';
import { runImport } from '../../server/import/importRunner';
import { startBenchServer } from './benchServer';
import { nativeDatabaseUrl } from './benchPostgres';
import { benchOverhead, overheadSection, type OverheadResult } from './overheadBenchmark';
import { summarize, type LatencySummary } from './latencyStats';
import { benchSearch, type SearchBenchResult } from './searchBenchmark';
import { benchSchema, schemaReport, type SchemaBenchResult } from './schemaBenchmark';
import { benchRealtime, freshDatabase, realtimeSection, type RealtimeBenchResult } from './realtimeBenchmark';
import { bundleSection, measureBundle } from './bundleBudget';
import { browserSection, runBrowserBenchmark } from './browserBenchmark';
import { chartSection } from './chartBenchmark';
import { tmpdir } from 'node:os';

/** Database sizes for the search benchmark (issue budgets: 100k embedded, 1M native). */
const searchSizes = {
  embedded: Number(process.env.BENCH_SEARCH_EMBEDDED ?? 100_000),
  native: Number(process.env.BENCH_SEARCH_NATIVE ?? 1_000_000),
};

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
const sharedSynthea = join(root, '..', 'shared', 'data', 'synthea-r4');
const fixtureSynthea = join(root, 'tests', 'fixtures', 'synthea');
const readCount = Number(process.env.BENCH_READS ?? 5000);
const readConcurrency = 8;

interface BackendResult {
  backend: string;
  files: number;
  resources: number;
  importSeconds: number;
  importPerSecond: number;
  failed: number;
  reads: LatencySummary;
  search?: SearchBenchResult;
  schema?: SchemaBenchResult;
}

function importRequests(): { requests: ImportRequest[]; files: number; resources: number; source: string } {
  const source = existsSync(sharedSynthea) ? sharedSynthea : fixtureSynthea;
  const files = readdirSync(source).filter((f) => f.endsWith('.json'));
  const requests: ImportRequest[] = [];
  let resources = 0;
  for (const file of files) {
    const plan = planFile(file, readFileSync(join(source, file), 'utf8'));
    requests.push(...plan.requests);
    resources += plan.resourceCount;
  }
  return { requests, files: files.length, resources, source };
}

async function measureReads(baseUrl: string): Promise<LatencySummary> {
  const ids: string[] = [];
  for (const type of ['Observation', 'Patient', 'Encounter', 'Condition']) {
    const bundle = (await (await benchFetch(`${baseUrl}fhir/R4/${type}?_count=500`)).json()) as {
      entry?: { resource: { id: string } }[];
    };
    ids.push(...(bundle.entry ?? []).map((e) => `${type}/${e.resource.id}`));
  }
  if (ids.length === 0) throw new Error('Nothing to read');
  // Warm up connections and caches before measuring.
  for (const id of ids.slice(0, 50)) await (await benchFetch(`${baseUrl}fhir/R4/${id}`)).arrayBuffer();
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < readCount) {
      const id = ids[next++ % ids.length];
      const t0 = performance.now();
      const response = await benchFetch(`${baseUrl}fhir/R4/${id}`);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`GET ${id} answered ${response.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: readConcurrency }, worker));
  return summarize(latencies, (performance.now() - started) / 1000);
}

async function benchBackend(backend: string, databaseUrl?: string): Promise<BackendResult> {
  console.log(`\n== ${backend} ==`);
  const server = await startBenchServer(root, databaseUrl);
  try {
    const { requests, files, resources, source } = importRequests();
    console.log(`Importing ${resources} resources from ${files} bundles (${source})…`);
    const result = await runImport(requests, {
      fhirBase: `${server.baseUrl}fhir/R4/`,
      concurrency: 2,
      headers: benchHeaders(),
    });
    if (result.failed > 0) console.log(`  ${result.failed} failed, first: ${JSON.stringify(result.problems[0])}`);
    const importPerSecond = result.imported / result.seconds;
    console.log(
      `  ${result.imported} resources in ${result.seconds.toFixed(1)} s = ${importPerSecond.toFixed(0)} resources/s`,
    );
    console.log(`Reading ${readCount} resources by id, ${readConcurrency} at a time…`);
    const reads = await measureReads(server.baseUrl);
    console.log(
      `  ${reads.perSecond.toFixed(0)} reads/s, p50 ${reads.p50.toFixed(1)} ms, p95 ${reads.p95.toFixed(1)} ms, p99 ${reads.p99.toFixed(1)} ms`,
    );
    // The schema engine's wire size and model build (once, on the embedded server: the data is the same).
    const schema = databaseUrl ? undefined : await benchSchema(server.baseUrl);
    const size = databaseUrl ? searchSizes.native : searchSizes.embedded;
    const search = size > 0 ? await benchSearch(server.baseUrl, size, (line) => console.log(line)) : undefined;
    return {
      backend,
      files,
      resources,
      importSeconds: result.seconds,
      importPerSecond,
      failed: result.failed,
      reads,
      search,
      schema,
    };
  } finally {
    await server.stop();
  }
}

function report(results: BackendResult[]): string {
  const budget = (r: BackendResult) => (r.backend.startsWith('native') ? 1000 : 400);
  const lines = [
    '# Benchmarks',
    '',
    'Produced by `npm run bench` (tests/bench/runBenchmarks.ts). The server runs as a child process',
    '(`scripts/start.mjs`, as `npm start` does) on a fresh database; the load comes from the bench process',
    'over loopback HTTP. Numbers are from one run on the machine below; shared 2-core machines vary by',
    '±20% between runs.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
    '',
    '## Import of the Synthea transaction Bundles',
    '',
    'Each patient is one transaction Bundle (`POST /fhir/R4`), two in flight at once; every entry is',
    'validated, indexed for all its search parameters and versioned in the same transaction.',
    '',
    '| backend | bundles | resources | failed | seconds | resources/s | budget |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.backend} | ${r.files} | ${r.resources} | ${r.failed} | ${r.importSeconds.toFixed(1)} | **${r.importPerSecond.toFixed(0)}** | ≥ ${budget(r)} ${r.importPerSecond >= budget(r) ? '✓' : '✗'} |`,
    ),
    '',
    '## Read by id',
    '',
    `\`GET /fhir/R4/{type}/{id}\` for Observation, Patient, Encounter and Condition ids, ${readConcurrency} concurrent clients.`,
    '',
    '| backend | reads | reads/s | p50 ms | p95 ms | p99 ms | budget p99 ≤ 20 ms |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.backend} | ${r.reads.count} | ${r.reads.perSecond.toFixed(0)} | ${r.reads.p50.toFixed(1)} | ${r.reads.p95.toFixed(1)} | ${r.reads.p99.toFixed(1)} | ${r.reads.p99 <= 20 ? '✓' : '✗'} |`,
    ),
    '',
    ...results.flatMap((r) => (r.search ? searchReport(r.backend, r.search) : [])),
    ...results.flatMap((r) => (r.schema ? schemaReport(r.schema) : [])),
  ];
  return lines.join('\n');
}

/** Replaces (or appends) the overhead section of docs/benchmarks.md, leaving the rest as it is. */
function writeOverheadSection(section: string): void {
  const file = join(root, 'docs', 'benchmarks.md');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const block = `${overheadStart}\n${section}${overheadEnd}`;
  const at = text.indexOf(overheadStart);
  const end = text.indexOf(overheadEnd);
  writeFileSync(
    file,
    at >= 0 && end > at ? `${text.slice(0, at)}${block}${text.slice(end + overheadEnd.length)}` : `${text}\n${block}\n`,
  );
}

const historyStart = '<!-- before/after history: kept by `npm run bench` -->';
const historyEnd = '<!-- end of before/after history -->';

/** The hand-written before/after record of docs/benchmarks.md, which a full run keeps as it is. */
function keptHistory(): string {
  const file = join(root, 'docs', 'benchmarks.md');
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(historyStart);
  const end = text.indexOf(historyEnd);
  return at >= 0 && end > at ? `\n${text.slice(at, end + historyEnd.length)}\n` : '';
}

const overheadStart = '<!-- overhead benchmark: written by `npm run bench` -->';
const overheadEnd = '<!-- end of overhead benchmark -->';

/** `npm run bench -- overhead`: only the server-against-SQL, memory and start measurement (issue 20). */
async function overheadOnly(): Promise<void> {
  const native = nativeDatabaseUrl(root);
  if (!native.url) throw new Error('The overhead benchmark needs native PostgreSQL');
  try {
    const result = await benchOverhead(root, await freshDatabase(native.url, 'hearth_bench_overhead'));
    const section = overheadSection(result);
    console.log(`\n${section}`);
    writeOverheadSection(section);
    console.log('Updated the overhead section of docs/benchmarks.md');
  } finally {
    native.stop?.();
  }
}

/**
 * `npm run bench -- search-native`: only the native PostgreSQL import, reads and 1M-resource search
 * (about 15 minutes on a quiet machine); replaces that search section of docs/benchmarks.md.
 */
async function searchNativeOnly(): Promise<void> {
  const native = nativeDatabaseUrl(root);
  if (!native.url) throw new Error('The native search benchmark needs native PostgreSQL');
  try {
    const result = await benchBackend('native PostgreSQL', await freshDatabase(native.url, 'hearth_bench_search'));
    if (!result.search) throw new Error('No search measured (BENCH_SEARCH_NATIVE=0?)');
    const section = `${searchReport(result.backend, result.search).join('\n')}\n`;
    console.log(`\n${section}`);
    const path = join(root, 'docs', 'benchmarks.md');
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf('## Search on native PostgreSQL');
    const end = at >= 0 ? text.indexOf('\n## ', at + 1) : -1;
    if (at < 0 || end < 0) throw new Error('No native search section in docs/benchmarks.md to replace');
    writeFileSync(path, `${text.slice(0, at)}${section}${text.slice(end + 1)}`);
    console.log('Updated the native search section of docs/benchmarks.md');
  } finally {
    native.stop?.();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('overhead')) return overheadOnly();
  if (process.argv.includes('search-native')) return searchNativeOnly();
  console.log('== browser bundle ==');
  const webRoot = join(tmpdir(), `hearth-bench-web-${process.pid}`);
  const bundle = measureBundle(root, webRoot);
  const results: BackendResult[] = [await benchBackend('embedded (PGlite)')];
  const native = nativeDatabaseUrl(root);
  let realtime: RealtimeBenchResult | undefined;
  let overhead: OverheadResult | undefined;
  if (native.url) {
    try {
      overhead = await benchOverhead(root, await freshDatabase(native.url, 'hearth_bench_overhead'));
      results.push(await benchBackend('native PostgreSQL', native.url));
      console.log('\n== realtime ==');
      realtime = await benchRealtime(await freshDatabase(native.url, 'hearth_bench_realtime'));
    } finally {
      native.stop?.();
    }
  }
  realtime ??= await benchRealtime();
  // Real Chromium against the app just built (its own server and fresh database; tests/bench/browserBenchmark.ts).
  console.log('\n== browser ==');
  const browser = await runBrowserBenchmark(root, webRoot);
  const chart = browser?.chart
    ? `\n${chartSection({ ...browser.chart, chromium: browser.chromium, loadAverage: browser.loadAverage })}`
    : '';
  const overheadBlock = overhead ? `\n${overheadStart}\n${overheadSection(overhead)}${overheadEnd}\n` : '';
  const markdown = `${report(results)}${overheadBlock}\n${realtimeSection(realtime)}\n${bundleSection(bundle)}${browser ? `\n${browserSection(browser)}` : ''}${chart}`;
  writeFileSync(join(root, 'docs', 'benchmarks.md'), `${markdown}${keptHistory()}`);
  console.log('\nWrote docs/benchmarks.md');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

function searchReport(backend: string, search: SearchBenchResult): string[] {
  const budgeted = (q: SearchBenchResult['queries'][number]) => q.group !== 'other';
  return [
    `## Search on ${backend}, ${search.resources.toLocaleString('en')} generated resources`,
    '',
    `${search.patients.toLocaleString('en')} generated patients (tests/bench/clinicGenerator.ts: encounters, observations, conditions,`,
    'medications, tasks, communications, lab orders, reports, documents, appointments, care plans, allergies, devices), on top of the',
    `Synthea import above; filled through \`POST /fhir/R4\` transactions in ${search.fillSeconds.toFixed(0)} s`,
    `(${Math.round(search.resources / search.fillSeconds)} resources/s). Each query shape: ${samples()} sequential requests over loopback, different patients.`,
    'Budget (at 1M resources on native PostgreSQL): p95 ≤ 30 ms for the chart and summary queries.',
    '',
    '| query | example | avg results | p50 ms | p95 ms | p99 ms | budget |',
    '|---|---|---|---|---|---|---|',
    ...search.queries.map(
      (q) =>
        `| ${q.name} | \`${q.example.replace(/\|/g, '\\|')}\` | ${q.results.toFixed(1)} | ${q.latency.p50.toFixed(1)} | ${q.latency.p95.toFixed(1)} | ${q.latency.p99.toFixed(1)} | ${budgeted(q) ? (q.latency.p95 <= 30 ? '✓' : '✗') : '–'} |`,
    ),
    '',
  ];
}

function samples(): number {
  return Number(process.env.BENCH_SEARCH_SAMPLES ?? 50);
}
