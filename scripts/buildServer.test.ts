import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, serverBuildIsCurrent } from './buildServer.mjs';

const root = join(__dirname, '..');

describe('the server bundle npm start runs', () => {
  // Beside the real one (dist-server/), one folder below the repository like it, so that the
  // bundle finds node_modules and the repository's files the way dist-server/main.mjs does.
  const outDir = join(root, `dist-server-test-${process.pid}`);
  let built: { bundle: string; inputs: string[] };
  let code: string;

  beforeAll(async () => {
    built = await buildServer(root, outDir);
    code = readFileSync(built.bundle, 'utf8');
  }, 60_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('holds every server source and lists them as its inputs', () => {
    expect(built.inputs).toContain('server/main.ts');
    expect(built.inputs).toContain('server/fhir/restRoutes.ts');
    expect(built.inputs.filter((file) => file.startsWith('server/')).length).toBeGreaterThan(150);
    // Nothing of ours is left to load at run time: no relative import remains.
    expect(code).not.toMatch(/\bfrom\s+["']\.\.?\//);
    expect(code).not.toMatch(/\bimport\(\s*["']\.\.?\//);
    // JSON files of packages are inside (node would refuse them without an import attribute).
    expect(code).not.toMatch(/from\s+["'][^"']+\.json["']/);
    expect(built.inputs.some((file) => file.startsWith('node_modules/') && file.endsWith('.json'))).toBe(true);
    // Packages stay packages.
    expect(code).toMatch(/from\s+["']fastify["']/);
    expect(readFileSync(`${built.bundle}.map`, 'utf8')).toContain('server/fhir/restRoutes.ts');
  });

  it('is current right after the build', () => {
    expect(serverBuildIsCurrent(root, outDir)).toBe(true);
  });

  it('loads every module and starts: it reaches the database, and says why it stops when there is none', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bundle-'));
    try {
      const run = spawnSync(process.execPath, ['--enable-source-maps', built.bundle], {
        env: { ...process.env, DATABASE_URL: 'postgres://hearth@127.0.0.1:1/none', DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.stdout).toContain('Hearth EMR: opening native PostgreSQL (DATABASE_URL)');
      expect(run.stderr).toContain('Hearth EMR failed to start: connect ECONNREFUSED 127.0.0.1:1');
      expect(run.status).toBe(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('whether the server bundle is current', () => {
  let fakeRoot: string;
  const builtAt = new Date('2026-01-02T00:00:00Z');
  const before = new Date('2026-01-01T00:00:00Z');
  const after = new Date('2026-01-03T00:00:00Z');

  /** A repository with two sources, the build settings and a bundle, all older than the bundle. */
  function fakeBuild(): string {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-build-'));
    mkdirSync(join(dir, 'server'));
    mkdirSync(join(dir, 'scripts'));
    mkdirSync(join(dir, 'dist-server'));
    for (const file of ['server/main.ts', 'server/a.ts', 'tsconfig.json', 'package.json', 'scripts/buildServer.mjs']) {
      writeFileSync(join(dir, file), '');
      utimesSync(join(dir, file), before, before);
    }
    writeFileSync(join(dir, 'dist-server', 'inputs.json'), JSON.stringify(['server/main.ts', 'server/a.ts']));
    writeFileSync(join(dir, 'dist-server', 'main.mjs'), '');
    utimesSync(join(dir, 'dist-server', 'main.mjs'), builtAt, builtAt);
    return dir;
  }

  beforeAll(() => {
    fakeRoot = fakeBuild();
  });
  afterAll(() => rmSync(fakeRoot, { recursive: true, force: true }));

  it('is current when nothing it was built from is newer', () => {
    expect(serverBuildIsCurrent(fakeRoot)).toBe(true);
  });

  it('is stale when a source, the TypeScript settings or the build script changed', () => {
    for (const file of ['server/a.ts', 'tsconfig.json', 'scripts/buildServer.mjs']) {
      utimesSync(join(fakeRoot, file), after, after);
      expect(serverBuildIsCurrent(fakeRoot), file).toBe(false);
      utimesSync(join(fakeRoot, file), before, before);
    }
    expect(serverBuildIsCurrent(fakeRoot)).toBe(true);
  });

  it('is stale when a source is gone, the list of inputs is unreadable or the bundle is missing', () => {
    const gone = fakeBuild();
    rmSync(join(gone, 'server', 'a.ts'));
    expect(serverBuildIsCurrent(gone)).toBe(false);
    const unreadable = fakeBuild();
    writeFileSync(join(unreadable, 'dist-server', 'inputs.json'), '{ not json');
    expect(serverBuildIsCurrent(unreadable)).toBe(false);
    const unbuilt = fakeBuild();
    rmSync(join(unbuilt, 'dist-server', 'main.mjs'));
    expect(serverBuildIsCurrent(unbuilt)).toBe(false);
    for (const dir of [gone, unreadable, unbuilt]) rmSync(dir, { recursive: true, force: true });
  });
});
