// `npm start`: build the web app when its sources are newer than the build, then run the server.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
  console.log('Building the web app…');
  const build = spawnSync(
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
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Run the TypeScript server in this process, so Ctrl-C reaches its shutdown handler directly.
const { register } = await import('tsx/esm/api');
register();
await import('../server/main.ts');
