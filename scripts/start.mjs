// `npm start`: build the web app and the server (scripts/buildServer.mjs) when their sources are
// newer than their builds, then run the server.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serverBuildDir, serverBuildIsCurrent } from './buildServer.mjs';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const webSources = [
  'src',
  'custom-screens',
  'data-provider',
  'schema-engine',
  'config',
  'index.html',
  'vite.config.ts',
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

// WEB_ROOT lets several checkouts or test runs build and serve their own copy of the web app.
const webRoot = process.env.WEB_ROOT ? resolve(process.env.WEB_ROOT) : join(root, 'dist');
const builtIndex = join(webRoot, 'index.html');
const sourcesChanged = Math.max(...webSources.map((p) => newestMtime(join(root, p))));
const hasWebApp = existsSync(join(root, 'index.html')) || existsSync(join(root, 'src', 'index.html'));
if (hasWebApp && (!existsSync(builtIndex) || statSync(builtIndex).mtimeMs < sourcesChanged)) {
  const why = existsSync(builtIndex) ? 'its sources changed' : 'first start';
  console.log(`Building the web app (${why}; about 40 s on 2 cores, only when the sources change)…`);
  const status = await buildWebApp();
  if (status !== 0) process.exit(status ?? 1);
}

/** Runs `vite build`, saying every few seconds that it is still at work, so a first start never looks hung. */
function buildWebApp() {
  const started = Date.now();
  const build = spawn(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--logLevel',
      'warn',
      '--outDir',
      webRoot,
      '--emptyOutDir',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const ticker = setInterval(() => {
    console.log(`  still building the web app… ${Math.round((Date.now() - started) / 1000)} s`);
  }, 5000);
  return new Promise((done) => {
    build.on('exit', (code) => {
      clearInterval(ticker);
      if (code === 0) console.log(`Web app built in ${Math.round((Date.now() - started) / 1000)} s.`);
      done(code);
    });
  });
}

// The server's bundle is built in a child process, so that esbuild's own service process does not
// stay beside the server (~0.5 s, only when a server file changed).
if (!serverBuildIsCurrent(root)) {
  const why = existsSync(join(serverBuildDir(root), 'main.mjs')) ? 'its sources changed' : 'first start';
  console.log(`Building the server (${why})…`);
  const status = await new Promise((done) =>
    spawn(process.execPath, [join(root, 'scripts', 'buildServer.mjs')], { cwd: root, stdio: 'inherit' }).on(
      'exit',
      done,
    ),
  );
  if (status !== 0) process.exit(status ?? 1);
}

// Run the server in this process, so Ctrl-C reaches its shutdown handler directly. Stack traces
// name the TypeScript sources (the bundle's source map).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(join(serverBuildDir(root), 'main.mjs')).href);
