import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import { loadServerConfig } from '../../config/serverConfig';
import { signIn } from '../../server/cli/passwordSignIn';
import { realtimeStatsOf, subscriptionHubOf } from '../../server/realtime';
import { createServerRuntime } from '../../server/serverRuntime';
import { freePort } from '../integration/freePort';
import { summarize, type LatencySummary } from './latencyStats';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

export interface RealtimeBenchResult {
  backend: string;
  subscriptions: number;
  patients: number;
  writes: number;
  targetWritesPerSecond: number;
  achievedWritesPerSecond: number;
  expectedNotifications: number;
  delivered: number;
  missing: number;
  duplicates: number;
  /** From the start of each write request to the notification's arrival, over all notifications. */
  latency: LatencySummary;
  /** From the write's answer (its commit) to the notification; 0 when the notification came first. */
  afterCommit: LatencySummary;
  /** The machine's 1-minute load average when the writes ended (other work on the machine). */
  loadAverage: number;
  within1s: number;
  before: { sockets: number; clients: number; bindings: number };
  after: { sockets: number; clients: number; bindings: number; pendingWrites: number };
  heapGrowthMb: number;
}

const settings = {
  subscriptions: Number(process.env.BENCH_RT_SUBSCRIPTIONS ?? 1000),
  patients: Number(process.env.BENCH_RT_PATIENTS ?? 50),
  writesPerSecond: Number(process.env.BENCH_RT_WRITES_PER_SECOND ?? 200),
  seconds: Number(process.env.BENCH_RT_SECONDS ?? 10),
};

/**
 * 1,000 websocket subscriptions (one socket each) on `Communication?subject=Patient/{p}` over 50
 * patients, then Communications written at 200/s over loopback; every notification is checked to
 * arrive exactly once, and the server's sockets and bindings are counted before and after the clients
 * disconnect. The server runs in this process so its counts can be read directly; `databaseUrl` (a
 * fresh native database) or the embedded one.
 */
export async function benchRealtime(
  databaseUrl?: string,
  log: (line: string) => void = console.log,
): Promise<RealtimeBenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-rt-'));
  const port = await freePort();
  const config = loadServerConfig({
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}/`,
    DATA_DIR: dataDir,
    SEED: 'none',
    ADMIN_PASSWORD: 'bench-password-1',
    WEB_ROOT: join(dataDir, 'no-web-app'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const runtime = await createServerRuntime(config);
  await runtime.app.listen({ port, host: '127.0.0.1' });
  const baseUrl = config.baseUrl;
  const sockets: WebSocket[] = [];
  try {
    const token = (await signIn(baseUrl, 'admin@example.com', 'bench-password-1')).access_token;
    const fhir = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}fhir/R4/${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/fhir+json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as any;
    };
    const batch = async (resources: unknown[]) =>
      (
        await fhir('POST', '', {
          resourceType: 'Bundle',
          type: 'transaction',
          entry: resources.map((resource: any) => ({
            resource,
            request: { method: 'POST', url: resource.resourceType },
          })),
        })
      ).entry.map(
        (entry: any) =>
          (entry.resource?.id as string | undefined) ??
          (/(?:^|\/)[A-Z][A-Za-z]+\/([A-Za-z0-9\-.]+)(?:\/_history\/|$)/.exec(entry.response.location)?.[1] as string),
      );

    log(`Realtime: ${settings.subscriptions} subscriptions over ${settings.patients} patients…`);
    const patients: string[] = await batch(
      Array.from({ length: settings.patients }, (_, i) => ({ resourceType: 'Patient', name: [{ family: `RT${i}` }] })),
    );
    const subscriptionPatient: string[] = Array.from(
      { length: settings.subscriptions },
      (_, i) => patients[i % patients.length],
    );
    const subscriptionIds: string[] = [];
    for (let start = 0; start < settings.subscriptions; start += 250) {
      const chunk = subscriptionPatient.slice(start, start + 250).map((patient) => ({
        resourceType: 'Subscription',
        status: 'active',
        reason: 'bench',
        criteria: `Communication?subject=Patient/${patient}`,
        channel: { type: 'websocket' },
      }));
      subscriptionIds.push(...(await batch(chunk)));
    }

    // One socket per subscription; each records the Communication ids it is notified about.
    const received: Map<string, number>[] = subscriptionIds.map(() => new Map());
    const arrivals = new Map<string, number[]>();
    const wsUrl = `${baseUrl.replace(/^http/, 'ws')}ws/subscriptions-r4`;
    for (let start = 0; start < subscriptionIds.length; start += 50) {
      await Promise.all(
        subscriptionIds.slice(start, start + 50).map(async (id, offset) => {
          const index = start + offset;
          const parameters = await fhir('GET', `Subscription/${id}/$get-ws-binding-token`);
          const bindingToken = parameters.parameter.find((p: any) => p.name === 'token').valueString;
          const socket = new WebSocket(wsUrl);
          sockets.push(socket);
          await new Promise<void>((resolve, reject) => {
            socket.once('error', reject);
            socket.on('message', (data) => {
              const message = JSON.parse(data.toString());
              const status = message.entry?.[0]?.resource;
              if (status?.type === 'handshake') return resolve();
              if (status?.type !== 'event-notification') return;
              const communication = message.entry[1].resource.id as string;
              received[index].set(communication, (received[index].get(communication) ?? 0) + 1);
              const times = arrivals.get(communication) ?? [];
              times.push(performance.now());
              arrivals.set(communication, times);
            });
            socket.once('open', () =>
              socket.send(JSON.stringify({ type: 'bind-with-token', payload: { token: bindingToken } })),
            );
          });
        }),
      );
    }
    const statsOf = () => realtimeStatsOf(runtime.app) as NonNullable<ReturnType<typeof realtimeStatsOf>>;
    const before = statsOf();
    log(`  bound: ${before.bindings} subscriptions on ${before.sockets} sockets`);
    const heapBefore = process.memoryUsage().heapUsed;

    const total = settings.writesPerSecond * settings.seconds;
    log(`  writing ${total} Communications at ${settings.writesPerSecond}/s…`);
    const sentAt = new Map<string, number>();
    const answeredAt = new Map<string, number>();
    const subjectOf = new Map<string, string>();
    const tickMs = 50;
    const perTick = (settings.writesPerSecond * tickMs) / 1000;
    const started = performance.now();
    const inFlight: Promise<void>[] = [];
    // Writes beyond this many unanswered wait: a server that falls behind shows as a lower rate.
    const maxInFlight = 64;
    let active = 0;
    const freed: (() => void)[] = [];
    for (let written = 0, tick = 0; written < total; tick++) {
      const due = started + tick * tickMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      for (let i = 0; i < perTick && written < total; i++, written++) {
        const patient = patients[written % patients.length];
        while (active >= maxInFlight) await new Promise<void>((resolve) => freed.push(resolve));
        active++;
        const t0 = performance.now();
        inFlight.push(
          fhir('POST', 'Communication', {
            resourceType: 'Communication',
            status: 'completed',
            subject: { reference: `Patient/${patient}` },
            payload: [{ contentString: `message ${written}` }],
          })
            .then((created) => {
              sentAt.set(created.id, t0);
              answeredAt.set(created.id, performance.now());
              subjectOf.set(created.id, patient);
            })
            .finally(() => {
              active--;
              freed.shift()?.();
            }),
        );
      }
    }
    await Promise.all(inFlight);
    const writeSeconds = (performance.now() - started) / 1000;
    const loadAverage = loadavg()[0];
    // Everything committed: wait until the hub has judged every write and the sockets have drained.
    const hub = subscriptionHubOf(runtime.app);
    await hub?.settled();
    const expectedNotifications = total * (settings.subscriptions / settings.patients);
    const deadline = Date.now() + 10_000;
    const deliveredCount = () => received.reduce((sum, map) => sum + [...map.values()].reduce((a, b) => a + b, 0), 0);
    while (deliveredCount() < expectedNotifications && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    let missing = 0;
    let duplicates = 0;
    subscriptionIds.forEach((_, index) => {
      for (const [communication, patient] of subjectOf) {
        const count = received[index].get(communication) ?? 0;
        if (patient === subscriptionPatient[index]) {
          if (count === 0) missing++;
          if (count > 1) duplicates += count - 1;
        } else if (count > 0) {
          duplicates += count; // Delivered to a subscription it does not match.
        }
      }
    });
    const latencies: number[] = [];
    for (const [communication, times] of arrivals) {
      const t0 = sentAt.get(communication);
      if (t0 !== undefined) for (const at of times) latencies.push(at - t0);
    }
    const latency = summarize(latencies, writeSeconds);
    const sinceCommit: number[] = [];
    for (const [communication, times] of arrivals) {
      const answered = answeredAt.get(communication);
      if (answered !== undefined) for (const at of times) sinceCommit.push(Math.max(0, at - answered));
    }
    const afterCommit = summarize(sinceCommit, writeSeconds);
    const within1s = latencies.filter((ms) => ms <= 1000).length;

    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === WebSocket.CLOSED) return resolve();
            socket.once('close', () => resolve());
            socket.close();
          }),
      ),
    );
    const closeDeadline = Date.now() + 5000;
    while (statsOf().sockets > 0 && Date.now() < closeDeadline) await new Promise((r) => setTimeout(r, 20));
    const after = statsOf();
    global.gc?.();
    const result: RealtimeBenchResult = {
      backend: databaseUrl ? 'native PostgreSQL' : 'embedded (PGlite)',
      subscriptions: settings.subscriptions,
      patients: settings.patients,
      writes: total,
      targetWritesPerSecond: settings.writesPerSecond,
      achievedWritesPerSecond: total / writeSeconds,
      expectedNotifications,
      delivered: deliveredCount(),
      missing,
      duplicates,
      latency,
      afterCommit,
      loadAverage,
      within1s,
      before: { sockets: before.sockets, clients: before.clients, bindings: before.bindings },
      after: {
        sockets: after.sockets,
        clients: after.clients,
        bindings: after.bindings,
        pendingWrites: after.pendingWrites,
      },
      heapGrowthMb: (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20,
    };
    log(
      `  ${result.delivered}/${expectedNotifications} notifications, ${missing} missing, ${duplicates} duplicates; ` +
        `latency p50 ${latency.p50.toFixed(0)} ms, p95 ${latency.p95.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms; ` +
        `after disconnect: ${after.sockets} sockets, ${after.bindings} bindings`,
    );
    return result;
  } finally {
    for (const socket of sockets) socket.terminate();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A new empty database `name` on the native server of `serverUrl` (dropped first if left over); answers its URL. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The section of docs/benchmarks.md for the realtime benchmark. */
export function realtimeSection(r: RealtimeBenchResult): string {
  const ok = (pass: boolean) => (pass ? '✓' : '✗');
  return [
    '## Realtime subscriptions',
    '',
    `${r.subscriptions} websocket Subscriptions (\`Communication?subject=Patient/{p}\` over ${r.patients} patients), each bound on`,
    `its own socket; ${r.writes} Communications written at ${r.targetWritesPerSecond}/s over loopback HTTP (each matches`,
    `${r.subscriptions / r.patients} subscriptions). The server runs in the bench process (${r.backend}), so that its`,
    'socket and binding counts can be read; latency is from the start of the write request to the notification.',
    'Run alone with `npx tsx tests/bench/realtimeBenchmark.ts [postgres://… of an empty database]` (`BENCH_RT_*`',
    'settings in the file).',
    '',
    '| measure | value | budget |',
    '|---|---|---|',
    `| writes/s achieved | ${r.achievedWritesPerSecond.toFixed(0)} | ≥ ${r.targetWritesPerSecond} ${ok(r.achievedWritesPerSecond >= r.targetWritesPerSecond * 0.95)} |`,
    `| notifications delivered / expected | ${r.delivered} / ${r.expectedNotifications} | all ${ok(r.delivered === r.expectedNotifications)} |`,
    `| missing, duplicate or wrong notifications | ${r.missing}, ${r.duplicates} | 0 ${ok(r.missing === 0 && r.duplicates === 0)} |`,
    `| latency p50 / p95 / p99 ms | ${r.latency.p50.toFixed(0)} / ${r.latency.p95.toFixed(0)} / ${r.latency.p99.toFixed(0)} | p99 ≤ 1000 ${ok(r.latency.p99 <= 1000)} |`,
    `| latency after the write's answer p50 / p95 / p99 ms | ${r.afterCommit.p50.toFixed(0)} / ${r.afterCommit.p95.toFixed(0)} / ${r.afterCommit.p99.toFixed(0)} | – |`,
    `| notifications within 1 s of the write request | ${r.within1s} of ${r.delivered} | – |`,
    `| machine load average (1 min) at the end of the writes | ${r.loadAverage.toFixed(1)} on ${cpus().length} cores | – |`,
    `| server sockets / bound subscriptions while connected | ${r.before.sockets} / ${r.before.bindings} | – |`,
    `| server sockets / clients / bindings / pending writes after disconnect | ${r.after.sockets} / ${r.after.clients} / ${r.after.bindings} / ${r.after.pendingWrites} | 0 ${ok(r.after.sockets + r.after.clients + r.after.bindings + r.after.pendingWrites === 0)} |`,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchRealtime(process.argv[2])
    .then((result) => console.log(`\n${realtimeSection(result)}`))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
