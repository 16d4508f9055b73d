// The server as one ES module, dist-server/main.mjs, which `npm start` runs (scripts/start.mjs).
//
// Why: run through tsx, each start resolved and compiled ~270 TypeScript files through a module
// loader that node runs on a thread (and V8 isolate) of its own; that was most of a restart's time
// (~1.7 s of ~3 s) and ~75 MB of the idle process (issue 20). The bundle loads in ~0.8 s.
// Packages stay outside it (node loads them from node_modules as usual), except JSON files
// imported from them, which node would only load with an import attribute.
//
//   node scripts/buildServer.mjs      # build now
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the bundle, its source map and the list of files it was built from are kept. */
export function serverBuildDir(root) {
  return join(root, 'dist-server');
}

/** Files that change how the sources compile without being sources themselves. */
const buildSettings = ['tsconfig.json', 'package.json', 'scripts/buildServer.mjs'];

/**
 * Whether dist-server/main.mjs was built from the files as they are now: none of the files it was
 * built from (inputs.json, written with it) is missing or newer than it. A file added to the
 * server is imported by one that changed, so it needs no check of its own.
 */
export function serverBuildIsCurrent(root, outDir = serverBuildDir(root)) {
  const bundle = join(outDir, 'main.mjs');
  const inputsFile = join(outDir, 'inputs.json');
  if (!existsSync(bundle) || !existsSync(inputsFile)) return false;
  const builtAt = statSync(bundle).mtimeMs;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(inputs) || inputs.length === 0) return false;
  return [...inputs, ...buildSettings].every((file) => {
    const path = join(root, file);
    return existsSync(path) && statSync(path).mtimeMs <= builtAt;
  });
}

/** Bare imports (packages, node: built-ins) stay imports, except a package's JSON files. */
const packagesStayExternal = {
  name: 'packages-stay-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.endsWith('.json') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Builds dist-server/main.mjs from server/main.ts. The files are written beside it first and
 * renamed into place, the bundle last, so that a server starting meanwhile (another test run in
 * the same checkout) never loads half a file.
 */
export async function buildServer(root, outDir = serverBuildDir(root)) {
  const { build } = await import('esbuild');
  const staging = `${outDir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['server/main.ts'],
      outfile: join(staging, 'main.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // As under tsx: class and function names stay what they are in the sources (errors, logs).
      keepNames: true,
      // Stack traces name the TypeScript files and lines (scripts/start.mjs enables source maps).
      sourcemap: true,
      metafile: true,
      logLevel: 'warning',
      plugins: [packagesStayExternal],
    });
    const inputs = Object.keys(result.metafile.inputs);
    writeFileSync(join(staging, 'inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
    mkdirSync(outDir, { recursive: true });
    for (const file of ['main.mjs.map', 'inputs.json', 'main.mjs']) renameSync(join(staging, file), join(outDir, file));
    return { bundle: join(outDir, 'main.mjs'), inputs };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(fileURLToPath(import.meta.url), '..', '..');
  const started = performance.now();
  const { inputs } = await buildServer(root);
  console.log(`Server built from ${inputs.length} files in ${Math.round(performance.now() - started)} ms.`);
}
