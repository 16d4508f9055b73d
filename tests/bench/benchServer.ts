import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../integration/freePort';
import { signIn } from '../../server/cli/passwordSignIn';
import { setBenchToken } from './benchFetch';
import { serverEnvironment, serverNodeFlags } from '../../config/serverNodeFlags';
import { buildServer, serverBuildDir, serverBuildIsCurrent } from '../../scripts/buildServer.mjs';

export interface BenchServer {
  baseUrl: string;
  /** The server process (for its memory: /proc/{pid}/status). */
  pid: number;
  /** From spawning the process to the first healthy `GET /healthcheck`. */
  startSeconds: number;
  /** Stops the server; its DATA_DIR is removed unless `keepDataDir`. */
  stop(options?: { keepDataDir?: boolean }): Promise<void>;
  dataDir: string;
  /** What the server has printed so far. */
  output(): string;
}

export interface BenchServerOptions {
  /**
   * Run the server's bundle (dist-server/main.mjs, built first if it is not current) as `npm start`
   * does, but without scripts/start.mjs, which may first rebuild the web app: start-time figures
   * then measure the server alone.
   */
  direct?: boolean;
  /**
   * Run server/main.ts through tsx instead of the bundle: CPU profiles then name each source file
   * (tests/bench/profileOverhead.ts).
   */
  fromSources?: boolean;
  /** An existing DATA_DIR (a restart); a fresh one otherwise. */
  dataDir?: string;
  /** Extra node flags, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
  nodeArgs?: string[];
}

/** Starts `npm start`'s entry point as a child process on a fresh database, as a user would. */
export async function startBenchServer(
  root: string,
  databaseUrl?: string,
  options: BenchServerOptions = {},
): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'hearth-bench-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...serverEnvironment,
    PORT: String(port),
    DATA_DIR: dataDir,
    SEED: 'none',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'bench-password-1',
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  // The node flags of `npm start` (package.json), so the server runs as a user's does.
  let entry = [...serverNodeFlags, join(root, 'scripts', 'start.mjs')];
  if (options.fromSources) {
    entry = [...serverNodeFlags, '--import', 'tsx', join(root, 'server', 'main.ts')];
  } else if (options.direct) {
    // Built before the clock starts, as it is for a user's restart (start.mjs builds it once per change).
    if (!serverBuildIsCurrent(root)) await buildServer(root);
    entry = [...serverNodeFlags, '--enable-source-maps', join(serverBuildDir(root), 'main.mjs')];
  }
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry], {
    env,
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}healthcheck`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`Server did not start in 180 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const startSeconds = (performance.now() - started) / 1000;
  setBenchToken((await signIn(baseUrl, 'admin@example.com', 'bench-password-1')).access_token);
  return {
    baseUrl,
    pid: child.pid as number,
    startSeconds,
    dataDir,
    output: () => output,
    stop: async (stopOptions = {}) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
      if (!stopOptions.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
