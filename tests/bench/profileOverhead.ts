import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runImport } from '../../server/import/importRunner';
import { benchHeaders } from './benchFetch';
import { nativeDatabaseUrl } from './benchPostgres';
import { startBenchServer } from './benchServer';
import { readableIds, readThroughServer, syntheaRequests } from './overheadBenchmark';
import { freePort } from '../integration/freePort';
import { profileWhile, type CpuProfile } from './inspectorProfiler';
import { percentile } from './latencyStats';
import { freshDatabase } from './realtimeBenchmark';

/**
 * Where the server's time goes while it serves reads by id or an import: runs the server under
 * `node --cpu-prof` on native PostgreSQL and prints the functions and files with the most self time.
 *
 *   npx tsx tests/bench/profileOverhead.ts reads    # profile 20,000 reads by id, 8 clients
 *   npx tsx tests/bench/profileOverhead.ts import   # profile the Synthea import
 *   npx tsx tests/bench/profileOverhead.ts import-warm   # a second import into a warm server only
 *   npx tsx tests/bench/profileOverhead.ts reads-warm    # 20,000 reads by id into a warm server only
 *   npx tsx tests/bench/profileOverhead.ts start    # profile a restart on a filled database
 *   npx tsx tests/bench/profileOverhead.ts reads-gc # V8's young-generation collections during 30,000 warm reads
 *
 * The .cpuprofile stays in the printed folder (open it in Chrome DevTools' Performance panel).
 */

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
const phase = process.argv[2] ?? 'reads';

function shortUrl(url: string): string {
  const at = url.indexOf('/node_modules/');
  if (at >= 0) return url.slice(at + 1);
  return url.replace(`file://${root}/`, '').replace(/^node:/, 'node:');
}

/** Self time per function and per file, in ms, largest first. */
function summarizeProfile(profile: CpuProfile, top = 40): string {
  const byNode = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    byNode.set(profile.samples[i], (byNode.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = byNode.get(node.id) ?? 0;
    total += ms;
    const file = shortUrl(node.callFrame.url) || '(native)';
    const name = `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    const group = file.startsWith('node_modules/') ? file.split('/').slice(0, 2).join('/') : file;
    byFile.set(group, (byFile.get(group) ?? 0) + ms);
  }
  const table = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => `${ms.toFixed(0).padStart(7)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  return `total ${total.toFixed(0)} ms\n\n-- self time by function --\n${table(byFunction)}\n\n-- self time by file/package --\n${table(byFile)}`;
}

type ImportRequests = ReturnType<typeof syntheaRequests>['requests'];

/** The steady state of an import: a first import warms the server up, the second is profiled through its inspector. */
async function profileWarmImport(url: string, requests: ImportRequests, profileDir: string) {
  const inspectorPort = await freePort();
  const server = await startBenchServer(root, url, {
    fromSources: true,
    nodeArgs: [`--inspect=127.0.0.1:${inspectorPort}`],
  });
  const importAll = () =>
    runImport(requests, { fhirBase: `${server.baseUrl}fhir/R4/`, concurrency: 2, headers: benchHeaders() });
  await importAll();
  const profile = await profileWhile(inspectorPort, importAll);
  await server.stop();
  const file = join(profileDir, 'import-warm.cpuprofile');
  writeFileSync(file, JSON.stringify(profile));
  return { file, profile };
}

/**
 * The steady state of reads by id: after the import and 20,000 reads (V8 has optimised the read
 * path), 20,000 more are profiled through the inspector.
 */
async function profileWarmReads(url: string, requests: ImportRequests, profileDir: string) {
  const inspectorPort = await freePort();
  const server = await startBenchServer(root, url, {
    fromSources: true,
    nodeArgs: [`--inspect=127.0.0.1:${inspectorPort}`],
  });
  await runImport(requests, { fhirBase: `${server.baseUrl}fhir/R4/`, concurrency: 2, headers: benchHeaders() });
  const ids = await readableIds(server.baseUrl);
  await readThroughServer(server.baseUrl, ids, 20_000);
  let line = '';
  const profile = await profileWhile(inspectorPort, async () => {
    const reads = await readThroughServer(server.baseUrl, ids, 20_000);
    line = `${reads.count} reads: ${reads.perSecond.toFixed(0)}/s, p50 ${reads.p50.toFixed(2)} ms`;
  });
  await server.stop();
  console.log(line);
  const file = join(profileDir, 'reads-warm.cpuprofile');
  writeFileSync(file, JSON.stringify(profile));
  return { file, profile };
}

/** One `--trace-gc-nvp` line's field, e.g. `pause` (ms) or `promoted` (bytes). */
function gcField(line: string, name: string): number {
  return Number(new RegExp(`\\b${name}=([0-9.]+)`).exec(line)?.[1] ?? 0);
}

/**
 * The young generation's collections (scavenges) while a warm server reads by id: how often, how
 * long each paused the server, how much each promoted to the old generation, and how many full
 * collections followed. Nothing a read allocates outlives it, so a steady promotion means garbage
 * kept alive by old garbage (config/serverNodeFlags.ts, `--no-allocation-site-pretenuring`).
 */
async function traceWarmReadsGc(url: string, requests: ImportRequests): Promise<void> {
  const server = await startBenchServer(root, url, { direct: true, nodeArgs: ['--trace-gc-nvp'] });
  await runImport(requests, { fhirBase: `${server.baseUrl}fhir/R4/`, concurrency: 2, headers: benchHeaders() });
  const ids = await readableIds(server.baseUrl);
  await readThroughServer(server.baseUrl, ids, 20_000);
  const mark = server.output().length;
  const reads = await readThroughServer(server.baseUrl, ids, 30_000);
  const lines = server.output().slice(mark).split('\n');
  await server.stop();
  const scavenges = lines.filter((line) => line.includes(' gc=s '));
  const sorted = (name: string) => scavenges.map((line) => gcField(line, name)).sort((a, b) => a - b);
  const pauses = sorted('pause');
  const promoted = sorted('promoted');
  console.log(
    `${reads.count} reads: ${reads.perSecond.toFixed(0)}/s, p50 ${reads.p50.toFixed(2)} ms, p99 ${reads.p99.toFixed(2)} ms`,
  );
  console.log(
    `scavenges ${scavenges.length} (one per ${(reads.count / Math.max(1, scavenges.length)).toFixed(0)} reads), ` +
      `pause median ${percentile(pauses, 50).toFixed(1)} / p90 ${percentile(pauses, 90).toFixed(1)} / max ${percentile(pauses, 100).toFixed(1)} ms, ` +
      `promoted median ${(percentile(promoted, 50) / 1024).toFixed(0)} KB; ` +
      `full collections ${lines.filter((line) => line.includes(' gc=mc ')).length}`,
  );
}

/** A whole server process under `--cpu-prof`, from its start (on a database that is ready) to its exit. */
async function profileProcess(url: string, requests: ImportRequests, profileDir: string) {
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  // The first start loads the definitions (not what is profiled); the profiled process starts on a ready database.
  let server = await startBenchServer(root, url, { direct: true });
  if (phase === 'import') {
    await server.stop({ keepDataDir: true });
    server = await startBenchServer(root, url, { fromSources: true, dataDir: server.dataDir, nodeArgs });
  }
  await runImport(requests, { fhirBase: `${server.baseUrl}fhir/R4/`, concurrency: 2, headers: benchHeaders() });
  if (phase === 'reads' || phase === 'start') {
    await server.stop({ keepDataDir: true });
    server = await startBenchServer(root, url, { fromSources: true, dataDir: server.dataDir, nodeArgs });
  }
  if (phase === 'reads') {
    const ids = await readableIds(server.baseUrl);
    const reads = await readThroughServer(server.baseUrl, ids, 20_000);
    console.log(`${reads.count} reads: ${reads.perSecond.toFixed(0)}/s, p50 ${reads.p50.toFixed(2)} ms`);
  }
  await server.stop();
  const name = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (!name) throw new Error(`No profile in ${profileDir}`);
  const file = join(profileDir, name);
  return { file, profile: JSON.parse(readFileSync(file, 'utf8')) as CpuProfile };
}

async function main(): Promise<void> {
  const native = nativeDatabaseUrl(root);
  if (!native.url) throw new Error('needs native PostgreSQL');
  const profileDir = mkdtempSync(join(tmpdir(), 'hearth-profile-'));
  try {
    const url = await freshDatabase(native.url, 'hearth_bench_profile');
    const { requests } = syntheaRequests(root);
    if (phase === 'reads-gc') return await traceWarmReadsGc(url, requests);
    const { file, profile } =
      phase === 'import-warm'
        ? await profileWarmImport(url, requests, profileDir)
        : phase === 'reads-warm'
          ? await profileWarmReads(url, requests, profileDir)
          : await profileProcess(url, requests, profileDir);
    console.log(`Profile: ${file}\n`);
    console.log(summarizeProfile(profile));
  } finally {
    native.stop?.();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
