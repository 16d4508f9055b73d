import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import http from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import type { Resource } from '@medplum/fhirtypes';
import { planFile, type ImportRequest } from '../../server/import/importPlan';
import { runImport } from '../../server/import/importRunner';
import { benchFetch, benchHeaders } from './benchFetch';
import { startBenchServer, type BenchServer } from './benchServer';
import { summarize, type LatencySummary } from './latencyStats';
import { startCpuMeter, type CpuShare } from './processCpu';
import { rawHttpGetter, type RawHttpGetter } from './rawHttpGetter';

/**
 * Issue 20: the server's overhead against the database's own limit, measured side by side in one
 * run on one native PostgreSQL database — the same import and the same reads done through Hearth
 * and straight in SQL — plus the server's memory (RSS) and its start and restart times.
 */

const readCount = Number(process.env.BENCH_READS ?? 10_000);
/**
 * Reads sent before measuring, on both sides: the server's read path runs far slower until V8 has
 * optimised it (through the thin client, in chunks of 5,000 after an import: ~3,000/s, ~6,400/s,
 * then 7,000–8,500/s until ~20,000 reads, 8,000–9,800/s after).
 */
const readWarmup = Number(process.env.BENCH_READ_WARMUP ?? 20_000);
const readClients = 8;
/** The measured reads of each side come in this many blocks, the two sides taking turns. */
const readBlocks = 5;
const importInFlight = 2;

export interface Timed {
  seconds: number;
  /** 1-minute load average when the phase ended. */
  load: number;
}

export interface OverheadResult {
  date: string;
  machine: string;
  source: string;
  bundles: number;
  resources: number;
  firstStart: Timed;
  restart: Timed;
  /** RSS in MB: idle after the first start, peak during the import, after the import, idle after a restart. */
  rss: { idleAfterStart: number; peakDuringImport: number; afterImport: number; idleAfterRestart: number };
  heapUsedAfterStart?: number;
  /** `compression`: the JSONB column's, the same as Hearth's resources.content (lz4, pglz or the default). */
  importSql: Timed & { perSecond: number; cpu: CpuShare; compression: string };
  importServer: Timed & { perSecond: number; failed: number; cpu: CpuShare };
  readsSql: Measured;
  readsServer: Measured;
  /** The read ratio of each pair of blocks (a SQL block, then a Hearth block): how much it moves within one run. */
  readRatioByBlock: number[];
  /** The same reads through node:http's client instead of the thin one: what passes 1–6 measured. */
  readsServerNodeHttp: Measured;
  /** GET /healthcheck: the HTTP hop and one `SELECT 1`, what no read through any server here can beat. */
  httpFloor: Measured;
  /**
   * One client reading by id, one read after the other, alone and while the Synthea Bundles are
   * imported a second time (2 in flight): how long a clinician's read waits behind an import.
   */
  readsBesideImport: { alone: LatencyWithMax; duringImport: LatencyWithMax };
  /** A first start on the embedded database: RSS idle, and what of it is the database's own memory (MB). */
  embedded: { rss: number; database: number; startSeconds: number };
}

type Measured = LatencySummary & { load: number; cpu: CpuShare };
type LatencyWithMax = LatencySummary & { max: number };

const load1 = () => loadavg()[0];

/** The Synthea transaction Bundles: BENCH_SYNTHEA_DIR, else shared/data/synthea-r4 when present, else the test fixtures. */
export function syntheaRequests(root: string): {
  requests: ImportRequest[];
  files: number;
  resources: number;
  source: string;
} {
  const shared = process.env.BENCH_SYNTHEA_DIR ?? join(root, '..', 'shared', 'data', 'synthea-r4');
  const source = existsSync(shared) ? shared : join(root, 'tests', 'fixtures', 'synthea');
  const files = readdirSync(source).filter((f) => f.endsWith('.json'));
  // Practitioners and organizations first: the patients' bundles refer to them.
  files.sort((a, b) => Number(/^(hospital|practitioner)/i.test(b)) - Number(/^(hospital|practitioner)/i.test(a)));
  const requests: ImportRequest[] = [];
  let resources = 0;
  for (const file of files) {
    const plan = planFile(file, readFileSync(join(source, file), 'utf8'));
    requests.push(...plan.requests);
    resources += plan.resourceCount;
  }
  return { requests, files: files.length, resources, source };
}

/** Resident set size of a process in MB (/proc/{pid}/status). */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/**
 * The same JSON into one JSONB table, one transaction per bundle, `importInFlight` bundles at a
 * time, one INSERT per resource: what the database does for the import without any server work.
 */
async function importStraightInSql(
  url: string,
  requests: readonly ImportRequest[],
  meter: () => () => CpuShare,
): Promise<{ count: number; cpu: CpuShare; compression: string }> {
  const pool = new pg.Pool({ connectionString: url, max: importInFlight });
  try {
    await pool.query('DROP TABLE IF EXISTS bench_raw_import');
    // The same column compression as Hearth's resources.content (lz4 on a server built with it), so
    // that the two sides differ by what Hearth does, not by a storage setting either could use.
    const [{ method }] = (
      await pool.query<{ method: string }>(
        `SELECT CASE a.attcompression WHEN 'l' THEN 'lz4' WHEN 'p' THEN 'pglz' ELSE 'default' END AS method
         FROM pg_attribute a WHERE a.attrelid = 'resources'::regclass AND a.attname = 'content'`,
      )
    ).rows;
    const compression = method === 'default' ? '' : ` COMPRESSION ${method}`;
    await pool.query(`CREATE TABLE bench_raw_import (id text PRIMARY KEY, content jsonb${compression} NOT NULL)`);
    const cpu = meter();
    let next = 0;
    let count = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++];
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          for (const entry of request.bundle.entry ?? []) {
            const resource = entry.resource as Resource;
            await client.query({
              name: 'bench_raw_insert',
              text: 'INSERT INTO bench_raw_import (id, content) VALUES ($1, $2)',
              values: [randomUUID(), JSON.stringify(resource)],
            });
            count++;
          }
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      }
    };
    await Promise.all(Array.from({ length: importInFlight }, worker));
    // Measured before the pool ends: its backends' CPU is gone with them.
    const spent = cpu();
    await pool.query('DROP TABLE bench_raw_import');
    return { count, cpu: spent, compression: method };
  } finally {
    await pool.end();
  }
}

/** Ids of stored resources to read: Observations, Patients, Encounters and Conditions. */
export async function readableIds(baseUrl: string): Promise<string[]> {
  const ids: string[] = [];
  for (const type of ['Observation', 'Patient', 'Encounter', 'Condition']) {
    const bundle = (await (await benchFetch(`${baseUrl}fhir/R4/${type}?_count=500`)).json()) as {
      entry?: { resource: { id: string } }[];
    };
    ids.push(...(bundle.entry ?? []).map((e) => `${type}/${e.resource.id}`));
  }
  if (ids.length === 0) throw new Error('Nothing to read');
  return ids;
}

/** One closed loop's raw result: every latency (ms), its duration and the CPU each group spent. */
interface Loop {
  latencies: number[];
  seconds: number;
  cpu: CpuShare;
}

const noMeter = () => () => ({ bench: 0, postgres: 0 });

/** `count` calls of `one`, `clients` at a time, each starting as soon as the client's last one ended. */
async function runLoop(
  count: number,
  clients: number,
  one: (i: number) => Promise<void>,
  meter: () => () => CpuShare = noMeter,
): Promise<Loop> {
  const latencies: number[] = [];
  let next = 0;
  const cpu = meter();
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      await one(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  return { latencies, seconds: (performance.now() - started) / 1000, cpu: cpu() };
}

/** Loops of one side taken together: their latencies, their summed time and CPU. */
function measuredOf(loops: readonly Loop[]): Measured {
  const sum = (pick: (cpu: CpuShare) => number | undefined) =>
    loops.reduce((total, loop) => total + (pick(loop.cpu) ?? 0), 0);
  const hasServer = loops.some((loop) => loop.cpu.server !== undefined);
  return {
    ...summarize(
      loops.flatMap((loop) => loop.latencies),
      loops.reduce((total, loop) => total + loop.seconds, 0),
    ),
    load: load1(),
    cpu: {
      bench: sum((cpu) => cpu.bench),
      server: hasServer ? sum((cpu) => cpu.server) : undefined,
      postgres: sum((cpu) => cpu.postgres),
    },
  };
}

async function closedLoop(
  count: number,
  clients: number,
  one: (i: number) => Promise<void>,
  meter?: () => () => CpuShare,
): Promise<Measured> {
  return measuredOf([await runLoop(count, clients, one, meter)]);
}

/**
 * `GET /fhir/R4/{type}/{id}`, `readClients` keep-alive connections (bodies read whole, not parsed).
 * A thin client (rawHttpGetter) rather than fetch or node:http: on 2 shared cores the load
 * generator's own cost per request takes CPU from the server it measures (undici's most, node:http's
 * ~130 µs, the thin client's ~35 µs; node-postgres on the SQL side ~55 µs). `client: 'node:http'`
 * measures with node's own client, as the passes before the seventh did.
 */
export async function readThroughServer(
  baseUrl: string,
  ids: readonly string[],
  count = readCount,
  meter?: () => () => CpuShare,
  client: GetClient = 'thin',
  warmup = readWarmup,
) {
  return getThroughServer(
    baseUrl,
    ids.map((id) => `/fhir/R4/${id}`),
    count,
    meter,
    client,
    warmup,
  );
}

/** The load generator's HTTP client: rawHttpGetter, or node:http's (how passes 1–6 measured). */
export type GetClient = 'thin' | 'node:http';

function getter(baseUrl: string, sockets: number, client: GetClient): RawHttpGetter {
  const headers = { ...benchHeaders(), accept: 'application/fhir+json' };
  return client === 'thin' ? rawHttpGetter(baseUrl, sockets, headers) : httpGetter(baseUrl, sockets, headers);
}

/** A GET over `sockets` keep-alive connections answering the status (the body is read whole, not parsed). */
function httpGetter(baseUrl: string, sockets: number, headers: Record<string, string>): RawHttpGetter {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(baseUrl);
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const request = http.get({ agent, hostname, port, path, headers }, (response) => {
        response.on('data', () => undefined);
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      });
      request.on('error', reject);
    });
  return { get, close: () => agent.destroy() };
}

/** A measured GET: anything but 200 stops the bench (a read that failed fast would flatter the rate). */
async function getOk(get: RawHttpGetter['get'], path: string): Promise<void> {
  const status = await get(path);
  if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
}

/** GETs of `paths` in turn, `readClients` keep-alive connections; every answer must be 200. */
async function getThroughServer(
  baseUrl: string,
  paths: readonly string[],
  count = readCount,
  meter?: () => () => CpuShare,
  client: GetClient = 'thin',
  warmup = readWarmup,
) {
  const { get, close } = getter(baseUrl, readClients, client);
  try {
    await closedLoop(warmup, readClients, async (i) => void (await get(paths[i % paths.length])));
    return await closedLoop(count, readClients, (i) => getOk(get, paths[i % paths.length]), meter);
  } finally {
    close();
  }
}

/**
 * One client reading by id without pause, first alone (1,000 reads), then for as long as an import of
 * `requests` (2 Bundles in flight) runs: the latency a clinician sees while someone imports.
 */
async function readsBesideImport(
  baseUrl: string,
  ids: readonly string[],
  requests: readonly ImportRequest[],
): Promise<OverheadResult['readsBesideImport'] & { imported: number; failed: number }> {
  const { get, close } = getter(baseUrl, 1, 'thin');
  const readUntil = async (done: () => boolean) => {
    const latencies: number[] = [];
    const started = performance.now();
    for (let i = 0; !done(); i++) {
      const t0 = performance.now();
      await getOk(get, `/fhir/R4/${ids[i % ids.length]}`);
      latencies.push(performance.now() - t0);
    }
    return { ...summarize(latencies, (performance.now() - started) / 1000), max: Math.max(...latencies) };
  };
  try {
    let count = 0;
    const alone = await readUntil(() => count++ >= 1000);
    let importing = true;
    const imported = runImport(requests, {
      fhirBase: `${baseUrl}fhir/R4/`,
      concurrency: importInFlight,
      headers: benchHeaders(),
    }).finally(() => {
      importing = false;
    });
    const duringImport = await readUntil(() => !importing);
    const result = await imported;
    return { alone, duringImport, imported: result.imported, failed: result.failed };
  } finally {
    close();
  }
}

/** `SELECT content` by primary key of the given `type/id`s, `readClients` connections (content as text, not parsed). */
function sqlReader(
  url: string,
  ids: readonly string[],
): { read: (i: number) => Promise<void>; close: () => Promise<void> } {
  const asText = { getTypeParser: () => (value: string) => value };
  const pool = new pg.Pool({ connectionString: url, max: readClients, types: asText });
  const keys = ids.map((id) => id.split('/'));
  return {
    read: async (i) => {
      const result = await pool.query({
        name: 'bench_read',
        text: 'SELECT content FROM resources WHERE resource_type = $1 AND id = $2',
        values: keys[i % keys.length],
      });
      if (result.rowCount !== 1) throw new Error(`No row for ${ids[i % ids.length]}`);
    },
    close: () => pool.end(),
  };
}

/**
 * The reads by id straight in SQL and through Hearth, measured in `readBlocks` alternating blocks
 * (SQL, Hearth, SQL, Hearth…) after each side's warm-up: on this shared machine the speed drifts
 * within seconds, and one long phase per side let a fast or slow spell fall on one side only.
 */
async function readsSideBySide(
  databaseUrl: string,
  baseUrl: string,
  ids: readonly string[],
  meters: { sql: () => () => CpuShare; server: () => () => CpuShare },
): Promise<{ sql: Measured; server: Measured; ratioByBlock: number[] }> {
  const sql = sqlReader(databaseUrl, ids);
  const hearth = getter(baseUrl, readClients, 'thin');
  const paths = ids.map((id) => `/fhir/R4/${id}`);
  const readHttp = (i: number) => getOk(hearth.get, paths[i % paths.length]);
  try {
    await runLoop(readWarmup, readClients, sql.read);
    await runLoop(readWarmup, readClients, readHttp);
    const block = Math.ceil(readCount / readBlocks);
    const sqlLoops: Loop[] = [];
    const serverLoops: Loop[] = [];
    for (let b = 0; b < readBlocks; b++) {
      sqlLoops.push(await runLoop(block, readClients, (i) => sql.read(b * block + i), meters.sql));
      serverLoops.push(await runLoop(block, readClients, (i) => readHttp(b * block + i), meters.server));
    }
    return {
      sql: measuredOf(sqlLoops),
      server: measuredOf(serverLoops),
      // Same number of reads per block: the ratio of rates is the ratio of durations.
      ratioByBlock: sqlLoops.map((loop, b) => loop.seconds / serverLoops[b].seconds),
    };
  } finally {
    hearth.close();
    await sql.close();
  }
}

function besideRow(label: string, m: LatencyWithMax): string {
  return `| ${label} | ${m.p50.toFixed(2)} ms | ${m.p99.toFixed(2)} ms | ${m.max.toFixed(1)} ms | ${m.count} |`;
}

function cpuRow(label: string, cpu: CpuShare, count: number): string {
  const us = (seconds: number | undefined) =>
    seconds === undefined ? '–' : `${((seconds / count) * 1e6).toFixed(0)} µs`;
  return `| ${label} | ${us(cpu.bench)} | ${us(cpu.server)} | ${us(cpu.postgres)} | ${us(cpu.bench + (cpu.server ?? 0) + cpu.postgres)} |`;
}

/** CPU per unit of work, e.g. `bench 41 µs, server 120 µs, PostgreSQL 38 µs per read`. */
function cpuLine(cpu: CpuShare, count: number, unit = 'read'): string {
  const us = (seconds: number) => `${((seconds / count) * 1e6).toFixed(0)} µs`;
  return [
    `bench ${us(cpu.bench)}`,
    cpu.server === undefined ? undefined : `server ${us(cpu.server)}`,
    `PostgreSQL ${us(cpu.postgres)} per ${unit}`,
  ]
    .filter(Boolean)
    .join(', ');
}

async function settle(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Samples a process's RSS every 100 ms until stopped; answers the largest sample in MB. */
function sampleRss(pid: number): () => number {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // The process ended.
    }
  }, 100);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** The whole measurement on one native PostgreSQL database (empty when given). */
export async function benchOverhead(root: string, databaseUrl: string, log = console.log): Promise<OverheadResult> {
  const { requests, files, resources, source } = syntheaRequests(root);
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean);
  log(`\n== server overhead on native PostgreSQL (${resources} resources in ${files} bundles from ${source}) ==`);

  let server: BenchServer = await startBenchServer(root, databaseUrl, { direct: true, nodeArgs });
  const firstStart = { seconds: server.startSeconds, load: load1() };
  log(`  first start (empty database): healthy in ${firstStart.seconds.toFixed(2)} s (load ${firstStart.load})`);
  await settle(2000);
  const idleAfterStart = rssMb(server.pid);
  log(`  RSS idle after start: ${idleAfterStart.toFixed(0)} MB`);
  let restart: Timed;
  let idleAfterRestart: number;
  let peakDuringImport: number;
  let afterImport: number;
  let importSql: OverheadResult['importSql'];
  let importServer: OverheadResult['importServer'];
  let readsSql: OverheadResult['readsSql'];
  let readsServer: OverheadResult['readsServer'];
  let readRatioByBlock: OverheadResult['readRatioByBlock'];
  let readsServerNodeHttp: OverheadResult['readsServerNodeHttp'];
  let httpFloor: OverheadResult['httpFloor'];
  let readsBeside: OverheadResult['readsBesideImport'];
  try {
    const postgresPort = Number(new URL(databaseUrl).port || 5432);
    const sqlMeter = () => startCpuMeter({ postgresPort });
    const serverMeter = () => startCpuMeter({ postgresPort, server: server.pid });
    // Raw SQL first, on the same database, while the server sits idle.
    const t0 = performance.now();
    const raw = await importStraightInSql(databaseUrl, requests, sqlMeter);
    const rawCount = raw.count;
    const rawSeconds = (performance.now() - t0) / 1000;
    importSql = {
      seconds: rawSeconds,
      perSecond: rawCount / rawSeconds,
      load: load1(),
      cpu: raw.cpu,
      compression: raw.compression,
    };
    log(
      `  import straight in SQL: ${rawCount} in ${rawSeconds.toFixed(1)} s = ${importSql.perSecond.toFixed(0)}/s (load ${importSql.load})`,
    );
    log(`    CPU: ${cpuLine(importSql.cpu, rawCount, 'resource')}`);

    const peak = sampleRss(server.pid);
    const importCpu = serverMeter();
    const result = await runImport(requests, {
      fhirBase: `${server.baseUrl}fhir/R4/`,
      concurrency: importInFlight,
      headers: benchHeaders(),
    });
    peakDuringImport = peak();
    importServer = {
      seconds: result.seconds,
      perSecond: result.imported / result.seconds,
      failed: result.failed,
      load: load1(),
      cpu: importCpu(),
    };
    if (result.failed > 0) log(`  ${result.failed} failed, first: ${JSON.stringify(result.problems[0])}`);
    log(
      `  import through Hearth: ${result.imported} in ${result.seconds.toFixed(1)} s = ${importServer.perSecond.toFixed(0)}/s (load ${importServer.load}); RSS peak ${peakDuringImport.toFixed(0)} MB`,
    );
    log(`    CPU: ${cpuLine(importServer.cpu, result.imported, 'resource')}`);
    await settle(1000);
    afterImport = rssMb(server.pid);

    const ids = await readableIds(server.baseUrl);
    for (const id of ids.slice(0, 50)) await (await benchFetch(`${server.baseUrl}fhir/R4/${id}`)).arrayBuffer();
    ({
      sql: readsSql,
      server: readsServer,
      ratioByBlock: readRatioByBlock,
    } = await readsSideBySide(databaseUrl, server.baseUrl, ids, {
      sql: sqlMeter,
      server: serverMeter,
    }));
    log(
      `  reads straight in SQL: ${readsSql.perSecond.toFixed(0)}/s p50 ${readsSql.p50.toFixed(2)} p99 ${readsSql.p99.toFixed(2)} ms (load ${readsSql.load})`,
    );
    log(`    CPU: ${cpuLine(readsSql.cpu, readsSql.count)}`);
    log(
      `  reads through Hearth: ${readsServer.perSecond.toFixed(0)}/s p50 ${readsServer.p50.toFixed(2)} p99 ${readsServer.p99.toFixed(2)} ms (load ${readsServer.load})`,
    );
    log(`    CPU: ${cpuLine(readsServer.cpu, readsServer.count)}`);
    // The same reads through node's own HTTP client (a short warm-up of its own: the server is warm).
    readsServerNodeHttp = await readThroughServer(server.baseUrl, ids, readCount, serverMeter, 'node:http', 2000);
    log(
      `  the same through node:http's client: ${readsServerNodeHttp.perSecond.toFixed(0)}/s p50 ${readsServerNodeHttp.p50.toFixed(2)} p99 ${readsServerNodeHttp.p99.toFixed(2)} ms (load ${readsServerNodeHttp.load})`,
    );
    log(`    CPU: ${cpuLine(readsServerNodeHttp.cpu, readsServerNodeHttp.count)}`);
    httpFloor = await getThroughServer(server.baseUrl, ['/healthcheck'], readCount, serverMeter);
    log(
      `  floor: GET /healthcheck (HTTP and SELECT 1): ${httpFloor.perSecond.toFixed(0)}/s p50 ${httpFloor.p50.toFixed(2)} p99 ${httpFloor.p99.toFixed(2)} ms (load ${httpFloor.load})`,
    );
    log(`    CPU: ${cpuLine(httpFloor.cpu, httpFloor.count, 'request')}`);
    const beside = await readsBesideImport(server.baseUrl, ids, requests);
    readsBeside = { alone: beside.alone, duringImport: beside.duringImport };
    const show = (m: LatencyWithMax) =>
      `p50 ${m.p50.toFixed(2)} / p99 ${m.p99.toFixed(2)} / max ${m.max.toFixed(1)} ms (${m.count} reads)`;
    log(`  one client's reads alone: ${show(beside.alone)}`);
    log(
      `  the same while the Bundles are imported again: ${show(beside.duringImport)}; ${beside.imported} imported, ${beside.failed} failed`,
    );
  } finally {
    await server.stop({ keepDataDir: true });
  }
  // A restart on the database just filled: what an operator waits for after an upgrade or a crash.
  server = await startBenchServer(root, databaseUrl, { direct: true, dataDir: server.dataDir, nodeArgs });
  try {
    restart = { seconds: server.startSeconds, load: load1() };
    await settle(2000);
    idleAfterRestart = rssMb(server.pid);
    log(
      `  restart on the filled database: healthy in ${restart.seconds.toFixed(2)} s (load ${restart.load}); RSS idle ${idleAfterRestart.toFixed(0)} MB`,
    );
  } finally {
    await server.stop();
  }
  // The embedded database runs inside the server process: its memory, as the server reports it
  // at start, is given apart from the process's RSS.
  const embeddedServer = await startBenchServer(root, undefined, { direct: true, nodeArgs });
  let embedded: OverheadResult['embedded'];
  try {
    await settle(2000);
    const database = Number(
      /Embedded database memory after start: (\d+) MB/.exec(embeddedServer.output())?.[1] ?? Number.NaN,
    );
    embedded = { rss: rssMb(embeddedServer.pid), database, startSeconds: embeddedServer.startSeconds };
    log(
      `  embedded (PGlite) first start: healthy in ${embedded.startSeconds.toFixed(2)} s; RSS idle ${embedded.rss.toFixed(0)} MB, of which the database ${embedded.database} MB`,
    );
  } finally {
    await embeddedServer.stop();
  }
  return {
    embedded,
    date: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
    source,
    bundles: files,
    resources,
    firstStart,
    restart,
    rss: { idleAfterStart, peakDuringImport, afterImport, idleAfterRestart },
    importSql,
    importServer,
    readsSql,
    readsServer,
    readRatioByBlock,
    readsServerNodeHttp,
    httpFloor,
    readsBesideImport: readsBeside,
  };
}

/** The section of docs/benchmarks.md for this measurement. */
export function overheadSection(r: OverheadResult): string {
  const ok = (pass: boolean) => (pass ? '✓' : '✗');
  const importRatio = r.importServer.perSecond / r.importSql.perSecond;
  const readRatio = r.readsServer.perSecond / r.readsSql.perSecond;
  return [
    '## Server overhead against the database (issue 20)',
    '',
    `Measured ${r.date} on ${r.machine}, native PostgreSQL 15 (scripts/startTestPostgres.sh), one run, one database:`,
    `${r.resources} resources in ${r.bundles} Synthea bundles (${r.source.includes('shared') ? 'shared/data/synthea-r4' : 'tests/fixtures/synthea'}).`,
    'The SQL figures do the same work straight on the same database from the bench process (node-postgres):',
    'the import inserts the same JSON into one JSONB table (one INSERT per resource, one transaction per bundle, 2 in',
    `flight; the column compressed like Hearth's \`resources.content\`: ${r.importSql.compression}); the reads are \`SELECT content FROM resources WHERE resource_type = $1 AND id = $2\` (a prepared`,
    'statement, 8 connections) for the same ids as the HTTP reads (8 keep-alive connections, one request in flight on each). Neither side parses the answer.',
    "The HTTP reads go through a thin client (tests/bench/rawHttpGetter.ts: a socket per connection, each answer's body",
    'read whole by its length), as a load generator made for the job (wrk, autocannon) would: on these 2 shared cores the',
    "client's CPU is taken from the server it measures. node:http's client, which passes 1–6 used, is measured too (its row",
    'below): the server does the same work for both, only the load generator costs more.',
    `Each side first sends ${readWarmup.toLocaleString('en')} reads that are not counted (V8 optimises the server's read path only after a few thousand), then ${readCount.toLocaleString('en')} measured`,
    `in ${readBlocks} blocks per side, the two sides taking turns (SQL, Hearth, SQL, …), so that both meet the same spells of this shared machine.`,
    'Load is the 1-minute load average when the phase ended (2 cores, shared with other work).',
    'Run alone with `npm run bench -- overhead`.',
    '',
    '| work | through Hearth | straight in SQL | ratio | target |',
    '|---|---|---|---|---|',
    `| import, resources/s | ${r.importServer.perSecond.toFixed(0)} (load ${r.importServer.load.toFixed(1)}, ${r.importServer.failed} failed) | ${r.importSql.perSecond.toFixed(0)} (load ${r.importSql.load.toFixed(1)}) | **${importRatio.toFixed(2)}** | ≥ 0.35 ${ok(importRatio >= 0.35)} |`,
    `| read by id, 8 clients, reads/s | ${r.readsServer.perSecond.toFixed(0)} (load ${r.readsServer.load.toFixed(1)}) | ${r.readsSql.perSecond.toFixed(0)} (load ${r.readsSql.load.toFixed(1)}) | **${readRatio.toFixed(2)}** | ≥ 0.5 ${ok(readRatio >= 0.5)} |`,
    `| read by id p50 / p99 ms | ${r.readsServer.p50.toFixed(2)} / ${r.readsServer.p99.toFixed(2)} | ${r.readsSql.p50.toFixed(2)} / ${r.readsSql.p99.toFixed(2)} | | p99 ≤ 10 ${ok(r.readsServer.p99 <= 10)} |`,
    `| the same reads through node:http's client, reads/s (p50 / p99 ms) | ${r.readsServerNodeHttp.perSecond.toFixed(0)} (load ${r.readsServerNodeHttp.load.toFixed(1)}; ${r.readsServerNodeHttp.p50.toFixed(2)} / ${r.readsServerNodeHttp.p99.toFixed(2)}) | | ${(r.readsServerNodeHttp.perSecond / r.readsSql.perSecond).toFixed(2)} | – |`,
    `| floor: \`GET /healthcheck\` (the HTTP hop and \`SELECT 1\`), requests/s | ${r.httpFloor.perSecond.toFixed(0)} (load ${r.httpFloor.load.toFixed(1)}), p50 ${r.httpFloor.p50.toFixed(2)} / p99 ${r.httpFloor.p99.toFixed(2)} ms | | read by id / floor: **${(r.readsServer.perSecond / r.httpFloor.perSecond).toFixed(2)}** | – |`,
    '',
    `The read ratio in each of the ${r.readRatioByBlock.length} block pairs of this run (a SQL block, then a Hearth block): ${r.readRatioByBlock.map((ratio) => ratio.toFixed(2)).join(', ')}.`,
    '',
    'CPU time per unit of work, from /proc (user + system) over the measured phase: the bench process (load',
    'generator), the server, and every process of the PostgreSQL cluster.',
    '',
    '| work | bench | server | PostgreSQL | total |',
    '|---|---|---|---|---|',
    cpuRow('import through Hearth, per resource', r.importServer.cpu, r.resources),
    cpuRow('import straight in SQL, per resource', r.importSql.cpu, r.resources),
    cpuRow('read by id through Hearth, per read', r.readsServer.cpu, r.readsServer.count),
    cpuRow(
      "read by id through Hearth with node:http's client, per read",
      r.readsServerNodeHttp.cpu,
      r.readsServerNodeHttp.count,
    ),
    cpuRow('read straight in SQL, per read', r.readsSql.cpu, r.readsSql.count),
    cpuRow('GET /healthcheck, per request', r.httpFloor.cpu, r.httpFloor.count),
    '',
    'One client reading by id, one read after the other: alone, then while the same Bundles are imported a second time',
    '(2 in flight) — how long a read waits behind an import.',
    '',
    '| one client reading by id | p50 | p99 | max | reads |',
    '|---|---|---|---|---|',
    besideRow('alone', r.readsBesideImport.alone),
    besideRow('while a transaction-Bundle import runs', r.readsBesideImport.duringImport),
    '',
    '| server process | value | target |',
    '|---|---|---|',
    `| RSS idle after the first start | ${r.rss.idleAfterStart.toFixed(0)} MB | ≤ 350 ${ok(r.rss.idleAfterStart <= 350)} |`,
    `| RSS peak during the import (sampled every 100 ms) | ${r.rss.peakDuringImport.toFixed(0)} MB | ≤ 600 ${ok(r.rss.peakDuringImport <= 600)} |`,
    `| RSS 1 s after the import | ${r.rss.afterImport.toFixed(0)} MB | – |`,
    `| RSS idle after the restart | ${r.rss.idleAfterRestart.toFixed(0)} MB | ≤ 350 ${ok(r.rss.idleAfterRestart <= 350)} |`,
    `| first start on an empty database, spawn to healthy | ${r.firstStart.seconds.toFixed(2)} s (load ${r.firstStart.load.toFixed(1)}) | – |`,
    `| restart on the filled database, spawn to healthy | ${r.restart.seconds.toFixed(2)} s (load ${r.restart.load.toFixed(1)}) | ≤ 3 ${ok(r.restart.seconds <= 3)} |`,
    `| embedded database (PGlite, no DATABASE_URL): RSS idle after the first start | ${r.embedded.rss.toFixed(0)} MB, of which the database's own (WebAssembly) memory ${r.embedded.database} MB and the server ${(r.embedded.rss - r.embedded.database).toFixed(0)} MB | reported apart |`,
    '',
  ].join('\n');
}
