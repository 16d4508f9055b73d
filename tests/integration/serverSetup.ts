import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadServerConfig } from '../../config/serverConfig';
import { createServerRuntime, type ServerRuntime } from '../../server/serverRuntime';
import { freePort } from './freePort';
import { signIn } from './signIn';
import { decodeJwt } from 'jose';
import { SigningKeys } from '../../server/auth/signingKeys';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseKind: string;
    adminPassword: string;
    /** An access token of the super admin, signed in through the real flow. */
    adminToken: string;
    expiredToken: string;
    foreignAudienceToken: string;
    dataDir: string;
    /** A loopback port listed in the server's BOT_FETCH_ALLOWED_HOSTS (bot fetch tests listen on it). */
    botFetchPort: number;
    /** A loopback port listed in BOT_FETCH_ALLOWED_HOSTS for the DoseSpot test server (server/bots/dosespotBots.test.ts). */
    doseSpotPort: number;
    /**
     * A loopback port listed in BOT_FETCH_ALLOWED_HOSTS where tests run what stands in for a
     * project's public endpoints: a client's jwksUri, its identity provider's userinfo (the server
     * fetches project-stored URLs only at public or listed addresses, server/net/outboundAddress.ts).
     */
    outboundTestPort: number;
    /** A value only the server's process.env holds: a bot that finds it has escaped its sandbox. */
    serverEnvMarker: string;
  }
}

/**
 * Starts one real Hearth EMR server for the test run: embedded PGlite in a temporary folder, or
 * a fresh database on the native PostgreSQL named by HEARTH_TEST_DATABASE_URL.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-test-'));
  // A stand-in for the built web app (dist/ is not built for the server suite): the server serves
  // it like the real one, so its headers can be tested (server/securityHeaders.test.ts).
  const webRoot = mkdtempSync(join(tmpdir(), 'hearth-test-web-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(
    join(webRoot, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Hearth EMR</title><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(webRoot, 'assets', 'app.js'), 'document.title = "Hearth EMR";\n');
  const nativeUrl = process.env.HEARTH_TEST_DATABASE_URL;
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (nativeUrl) {
    const name = `hearth_test_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: nativeUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(nativeUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: nativeUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
  }

  const adminPassword = 'test-admin-password-1';
  // Links in answers carry BASE_URL, so the port must be known before the server starts.
  const port = await freePort();
  const botFetchPort = await freePort();
  const doseSpotPort = await freePort();
  const outboundTestPort = await freePort();
  const serverEnvMarker = `server-env-marker-${process.pid}-${Date.now()}`;
  process.env.HEARTH_TEST_ENV_MARKER = serverEnvMarker;
  const config = loadServerConfig({
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}/`,
    DATA_DIR: dataDir,
    SEED: 'none',
    MAX_BODY_BYTES: String(8 * 1024 * 1024),
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: adminPassword,
    WEB_ROOT: webRoot,
    BOT_FETCH_ALLOWED_HOSTS: `127.0.0.1:${botFetchPort},127.0.0.1:${doseSpotPort},127.0.0.1:${outboundTestPort}`,
    // Small, so the e-mail tests reach it (server/email/email.test.ts).
    EMAIL_PROJECT_HOURLY_LIMIT: '5',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const runtime: ServerRuntime = await createServerRuntime(config, {});
  await runtime.app.listen({ port, host: '127.0.0.1' });
  project.provide('baseUrl', config.baseUrl);
  project.provide('databaseKind', runtime.db.kind);
  project.provide('adminPassword', adminPassword);
  const adminToken = (await signIn(config.baseUrl, 'admin@example.com', adminPassword)).access_token;
  project.provide('adminToken', adminToken);
  // Tokens only the server's own key can make: expired, and for another audience (auth tests).
  const keys = await SigningKeys.load(runtime.db, config.baseUrl);
  const claims = decodeJwt(adminToken);
  project.provide('expiredToken', await keys.sign({ ...claims, exp: undefined, iat: undefined }, -60));
  project.provide(
    'foreignAudienceToken',
    await keys.sign(
      { ...claims, aud: 'another-client', client_id: 'another-client', exp: undefined, iat: undefined },
      3600,
    ),
  );
  project.provide('dataDir', dataDir);
  project.provide('botFetchPort', botFetchPort);
  project.provide('doseSpotPort', doseSpotPort);
  project.provide('outboundTestPort', outboundTestPort);
  project.provide('serverEnvMarker', serverEnvMarker);

  return async () => {
    await runtime.close();
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(webRoot, { recursive: true, force: true });
  };
}
