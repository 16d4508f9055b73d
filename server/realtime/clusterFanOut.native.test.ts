import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../tests/integration/freePort';
import { signIn } from '../../tests/integration/signIn';
import { SocketTestClient, statusOf } from './socketTestClient.test-support';
import { fhircastSubscribe } from '../fhircast/fhircastHubClient.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * Two server processes on one native PostgreSQL database: a write on one reaches a websocket client
 * of the other (LISTEN/NOTIFY). Runs only when HEARTH_TEST_DATABASE_URL names a native server (see
 * vitest.config.ts); the embedded database has a single process by design.
 */
const nativeUrl = process.env.HEARTH_TEST_DATABASE_URL as string;
const adminPassword = 'cluster-admin-password-1';

interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  dataDir: string;
  token: string;
}

/** `publicUrl`: the BASE_URL processes behind one load balancer share (tokens name it as their issuer). */
async function startServer(databaseUrl: string, publicUrl?: string): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}/`;
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-cluster-'));
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      BASE_URL: publicUrl ?? baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SEED: 'none',
      ADMIN_PASSWORD: adminPassword,
      REALTIME_HEARTBEAT_MS: '500',
      WEB_ROOT: join(dataDir, 'no-web-app'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 150_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      if (output.includes('Hearth EMR is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const token = (await signIn(baseUrl, 'admin@example.com', adminPassword)).access_token;
  return { child, baseUrl, dataDir, token };
}

async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server) return;
  if (server.child.exitCode === null) {
    await new Promise<void>((resolve) => {
      server.child.once('exit', () => resolve());
      server.child.kill('SIGTERM');
    });
  }
  rmSync(server.dataDir, { recursive: true, force: true });
}

async function call(server: ServerProcess, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(new URL(`fhir/R4/${path}`, server.baseUrl), {
    method,
    headers: {
      authorization: `Bearer ${server.token}`,
      accept: 'application/fhir+json',
      ...(body ? { 'content-type': 'application/fhir+json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
}

describe('realtime fan-out between server processes (native PostgreSQL)', () => {
  const name = `hearth_cluster_${process.pid}_${Date.now()}`;
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;
  let databaseUrl: string;
  const sockets: SocketTestClient[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: nativeUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(nativeUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    // The first loads the definitions; the second then starts on the ready database.
    first = await startServer(databaseUrl);
    second = await startServer(databaseUrl, first.baseUrl);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await Promise.all([stopServer(first), stopServer(second)]);
    const admin = new pg.Client({ connectionString: nativeUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }, 60_000);

  it('delivers a write made on one process to a socket bound on the other', async () => {
    const a = first as ServerProcess;
    const b = second as ServerProcess;
    const patient = (await call(a, 'POST', 'Patient', { resourceType: 'Patient', name: [{ family: 'Cluster' }] })).body;
    const criteria = `Communication?subject=Patient/${patient.id}`;
    // The second process learns that no Subscription wants Communications yet (and caches it)…
    expect(
      (await call(b, 'POST', 'Communication', { resourceType: 'Communication', status: 'completed' })).status,
    ).toBe(201);
    // …then a Subscription is created on the first: the second must drop that cache.
    const subscription = (
      await call(a, 'POST', 'Subscription', {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'cluster test',
        criteria,
        channel: { type: 'websocket' },
      })
    ).body;
    // The token comes from the first process and is bound on the second.
    const binding = (await call(a, 'GET', `Subscription/${subscription.id}/$get-ws-binding-token`)).body;
    const token = binding.parameter.find((p: any) => p.name === 'token').valueString;
    const socket = await SocketTestClient.open(b.baseUrl.replace(/^http/, 'ws') + 'ws/subscriptions-r4');
    sockets.push(socket);
    await socket.bind(token, subscription.id);

    const message = {
      resourceType: 'Communication',
      status: 'in-progress',
      subject: { reference: `Patient/${patient.id}` },
    };
    const started = Date.now();
    const created = (await call(a, 'POST', 'Communication', message)).body;
    const remote = await socket.notification(subscription.id, 2000);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(remote.entry[1].resource.id).toBe(created.id);

    // A delete on the first process carries the removed content across.
    expect((await call(a, 'DELETE', `Communication/${created.id}`)).status).toBe(200);
    const deletion = await socket.notification(subscription.id);
    expect(deletion.entry[1].request.method).toBe('DELETE');
    expect(deletion.entry[1].resource.subject.reference).toBe(`Patient/${patient.id}`);

    // A write on the socket's own process is delivered once, not twice (local + NOTIFY echo).
    const local = (await call(b, 'POST', 'Communication', message)).body;
    const own = await socket.notification(subscription.id);
    expect(own.entry[1].resource.id).toBe(local.id);
    const later = (await call(a, 'POST', 'Communication', message)).body;
    const next = await socket.notification(subscription.id);
    expect(next.entry[1].resource.id).toBe(later.id);
    expect(statusOf(next).eventsSinceSubscriptionStart).toBe('4');

    // Switching the Subscription off on the first process stops notifications from the second.
    expect((await call(a, 'PUT', `Subscription/${subscription.id}`, { ...subscription, status: 'off' })).status).toBe(
      200,
    );
    await call(a, 'POST', 'Communication', message);
    const queuedHeartbeats = socket.messages.filter((m) => statusOf(m)?.type === 'heartbeat');
    for (const queued of queuedHeartbeats) socket.messages.splice(socket.messages.indexOf(queued), 1);
    const heartbeat = await socket.next((m) => statusOf(m)?.type === 'heartbeat', 5000);
    expect(statusOf(heartbeat).subscription.reference).toBe(`Subscription/${subscription.id}`);
    // Heartbeats come every 500 ms here: two more, and still no notification.
    await socket.next((m) => statusOf(m)?.type === 'heartbeat', 5000);
    await socket.next((m) => statusOf(m)?.type === 'heartbeat', 5000);
    expect(socket.messages.filter((m) => statusOf(m)?.type === 'event-notification')).toEqual([]);
  });

  it('applies a SearchParameter saved on one process on the other, and its deletion (issue 14 item 4)', async () => {
    const a = first as ServerProcess;
    const b = second as ServerProcess;
    const code = `cluster-nick-${Date.now()}`;
    const eventually = async (check: () => Promise<boolean>) => {
      for (let attempt = 0; attempt < 50 && !(await check()); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await check()).toBe(true);
    };
    const parameter = await call(a, 'POST', 'SearchParameter', {
      resourceType: 'SearchParameter',
      url: `https://cluster.example/SearchParameter/${code}`,
      name: 'ClusterNick',
      status: 'active',
      description: 'Nickname',
      code,
      base: ['Patient'],
      type: 'string',
      expression: "Patient.name.where(use = 'nickname').given",
    });
    expect(parameter.status).toBe(201);
    // The second process learns of it from the first: it indexes and searches with it.
    await eventually(async () => (await call(b, 'GET', `Patient?${code}=x`)).status === 200);
    const patient = (
      await call(b, 'POST', 'Patient', { resourceType: 'Patient', name: [{ use: 'nickname', given: ['Clusty'] }] })
    ).body;
    const found = await call(b, 'GET', `Patient?${code}=Clusty`);
    expect(found.body.entry.map((e: any) => e.resource.id)).toEqual([patient.id]);
    expect((await call(a, 'GET', `Patient?${code}=Clusty`)).body.entry.map((e: any) => e.resource.id)).toEqual([
      patient.id,
    ]);
    expect((await call(a, 'DELETE', `SearchParameter/${parameter.body.id}`)).status).toBe(200);
    await eventually(async () => (await call(b, 'GET', `Patient?${code}=Clusty`)).status === 400);
  });

  it('shares FHIRcast subscriptions, events and context between the processes', async () => {
    const a = first as ServerProcess;
    const b = second as ServerProcess;
    const topic = 'cluster-topic';
    const subscribed = await fhircastSubscribe(a.baseUrl, topic, 'Patient-open', a.token);
    const endpoint = subscribed.body['hub.channel.endpoint'] as string;
    // The endpoint, made by the first process, is opened on the second.
    const socket = await SocketTestClient.open(b.baseUrl.replace(/^http/, 'ws') + new URL(endpoint).pathname.slice(1));
    sockets.push(socket);
    await socket.next((m) => m['hub.mode'] === 'subscribe');
    const published = await fetch(new URL(`fhircast/STU3/${topic}`, a.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        event: {
          'hub.event': 'Patient-open',
          context: [{ key: 'patient', resource: { resourceType: 'Patient', id: 'x1' } }],
        },
      }),
    });
    expect(published.status).toBe(202);
    const event = await socket.next((m) => m.event?.['hub.event'] === 'Patient-open');
    expect(event.event.context[0].resource.id).toBe('x1');
    const context = await fetch(new URL(`fhircast/STU3/${topic}`, b.baseUrl), {
      headers: { authorization: `Bearer ${b.token}` },
    });
    expect(((await context.json()) as any)['context.type']).toBe('Patient');
  });

  it('closes a FHIRcast socket on the other process at once when its sign-in ends', async () => {
    const a = first as ServerProcess;
    const b = second as ServerProcess;
    const token = (await signIn(a.baseUrl, 'admin@example.com', adminPassword)).access_token;
    const subscribe = await fetch(new URL('fhircast/STU3', a.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        'hub.channel.type': 'websocket',
        'hub.mode': 'subscribe',
        'hub.topic': 'cluster-logout-topic',
        'hub.events': 'Patient-open',
      }).toString(),
    });
    const endpoint = ((await subscribe.json()) as any)['hub.channel.endpoint'] as string;
    const socket = await SocketTestClient.open(b.baseUrl.replace(/^http/, 'ws') + new URL(endpoint).pathname.slice(1));
    sockets.push(socket);
    const closed = new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));
    await socket.next((m) => m['hub.mode'] === 'subscribe');
    const logout = await fetch(new URL('oauth2/logout', a.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(logout.status).toBe(200);
    // No event needed: the announcement of the revoked Login closes it (not the minute's sweep).
    const code = await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('open'), 5000))]);
    expect(code).toBe(4401);
  });

  const paths = (patientId: string) => [
    'Patient?_count=1',
    // A read by id: the check of a cached caller rides on the read's own statement.
    `Patient/${patientId}`,
    'Patient/no-such-patient',
    // Refused before any statement runs.
    'Patient/bad$id',
  ];
  const answerStatus = async (server: ServerProcess, token: string, path: string) =>
    (
      await fetch(new URL(`fhir/R4/${path}`, server.baseUrl), {
        headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json' },
      })
    ).status;
  const statusesOf = async (server: ServerProcess, token: string, patientId: string) => {
    const statuses: number[] = [];
    for (const path of paths(patientId)) statuses.push(await answerStatus(server, token, path));
    return statuses;
  };
  const signedInStatuses = [200, 200, 404, 400];
  const refused = [401, 401, 401, 401];

  it('stops a login signed out on one process at once on the other, though the other had it cached (issue 20)', async () => {
    const a = first as ServerProcess;
    const b = second as ServerProcess;
    const patient = await call(a, 'POST', 'Patient', { resourceType: 'Patient', name: [{ family: 'Revoked' }] });
    expect(patient.status).toBe(201);
    for (let round = 0; round < 3; round++) {
      // Each kind of request is the first one after the sign-out, while the other process still
      // holds the resolved caller (the first refusal drops it).
      for (const path of paths(patient.body.id)) {
        const token = (await signIn(a.baseUrl, 'admin@example.com', adminPassword)).access_token;
        expect(await statusesOf(b, token, patient.body.id)).toEqual(signedInStatuses);
        expect(await statusesOf(a, token, patient.body.id)).toEqual(signedInStatuses);
        expect(await statusesOf(b, token, patient.body.id)).toEqual(signedInStatuses);
        const logout = await fetch(new URL('oauth2/logout', a.baseUrl), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(logout.status).toBe(200);
        expect(await answerStatus(b, token, path), path).toBe(401);
        expect(await answerStatus(a, token, path), path).toBe(401);
        expect(await statusesOf(b, token, patient.body.id)).toEqual(refused);
      }
    }
    // The tokens of other logins of the same user still work.
    expect(await statusesOf(b, b.token, patient.body.id)).toEqual(signedInStatuses);
  });

  it("refuses a signed-out login's reads that arrive together with a signed-in one's (batched reads by id, issue 20)", async () => {
    const a = first as ServerProcess;
    const b = second as ServerProcess;
    const patient = await call(a, 'POST', 'Patient', { resourceType: 'Patient', name: [{ family: 'Batched' }] });
    expect(patient.status).toBe(201);
    const path = `Patient/${patient.body.id}`;
    // Which of 40 reads sent at once are the signed-out login's: after two of the signed-in one's
    // (the first goes alone, the second may lead a batch), every other one, or one in three. A
    // batch must never answer one read with another's row: the signed-out login's would then pass.
    const patterns = [
      (i: number) => i >= 2 && i % 2 === 0,
      (i: number) => i >= 2 && i % 2 === 1,
      (i: number) => i % 3 === 2,
    ];
    for (const isEnded of patterns) {
      const kept = (await signIn(a.baseUrl, 'admin@example.com', adminPassword)).access_token;
      const ended = (await signIn(a.baseUrl, 'admin@example.com', adminPassword)).access_token;
      // Both callers cached on the other process; 40 reads at once also open the keep-alive
      // connections the reads below arrive on together (new connections spread them out).
      expect([await answerStatus(b, kept, path), await answerStatus(b, ended, path)]).toEqual([200, 200]);
      const warm = await Promise.all(Array.from({ length: 40 }, () => answerStatus(b, kept, path)));
      expect(warm).toEqual(warm.map(() => 200));
      const logout = await fetch(new URL('oauth2/logout', a.baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${ended}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(logout.status).toBe(200);
      // Interleaved and all at once, so that the other process reads them in shared statements.
      const tokens = Array.from({ length: 40 }, (_, i) => (isEnded(i) ? ended : kept));
      const statuses = await Promise.all(tokens.map((token) => answerStatus(b, token, path)));
      expect(statuses).toEqual(tokens.map((token) => (token === kept ? 200 : 401)));
    }
  });

  // Last: it switches the admin's membership off, which ends every token of the admin.
  it('stops a caller at once on the other process when its membership is switched off (issue 20)', async () => {
    const a = first as ServerProcess;
    const b = second as ServerProcess;
    const token = (await signIn(a.baseUrl, 'admin@example.com', adminPassword)).access_token;
    const patient = await call(a, 'POST', 'Patient', { resourceType: 'Patient', name: [{ family: 'Switched' }] });
    expect(patient.status).toBe(201);
    expect(await statusesOf(b, token, patient.body.id)).toEqual(signedInStatuses);
    expect(await statusesOf(b, token, patient.body.id)).toEqual(signedInStatuses);
    const memberships = await call(a, 'GET', 'ProjectMembership?_count=100');
    const membership = memberships.body.entry
      .map((e: any) => e.resource)
      .find((m: any) => m.user?.display === 'admin@example.com');
    expect(membership).toBeDefined();
    const updated = await call(a, 'PUT', `ProjectMembership/${membership.id}`, { ...membership, active: false });
    expect(updated.status).toBe(200);
    // The next request on the other process, which had this caller cached, is refused: a read by
    // id, whose check rides on its own statement, first.
    expect(await answerStatus(b, token, `Patient/${patient.body.id}`)).toBe(401);
    expect(await statusesOf(b, token, patient.body.id)).toEqual(refused);
    expect(await statusesOf(a, token, patient.body.id)).toEqual(refused);
  });
});
