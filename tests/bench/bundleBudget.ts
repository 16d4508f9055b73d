import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** ARCHITECTURE.md: the sign-in route may load at most 350 KB gzip of JavaScript and CSS. */
export const signInBudgetBytes = 350_000;

export interface BundleBudgetResult {
  /** Files the browser loads before the sign-in page can render (index.html's scripts and styles). */
  entryFiles: { file: string; gzipBytes: number }[];
  entryGzipBytes: number;
  /** Every lazily loaded chunk, largest first: each further screen is one or a few of these. */
  largestLazyChunks: { file: string; gzipBytes: number }[];
}

/** Builds the web app into `outDir` and measures what the first page costs on the wire. */
export function measureBundle(root: string, outDir: string): BundleBudgetResult {
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--logLevel',
      'warn',
      '--outDir',
      outDir,
      '--emptyOutDir',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const entryNames = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const sizeOf = (file: string) => gzipSync(readFileSync(join(outDir, file))).length;
  const entryFiles = entryNames.map((file) => ({ file, gzipBytes: sizeOf(file) }));
  const lazy = readdirSync(join(outDir, 'assets'))
    .map((name) => `assets/${name}`)
    .filter((file) => file.endsWith('.js') && !entryNames.includes(file))
    .map((file) => ({ file, gzipBytes: sizeOf(file) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return {
    entryFiles,
    entryGzipBytes: entryFiles.reduce((sum, f) => sum + f.gzipBytes, 0),
    largestLazyChunks: lazy.slice(0, 5),
  };
}

export function bundleSection(result: BundleBudgetResult): string {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
  const verdict = result.entryGzipBytes <= signInBudgetBytes ? 'within' : 'OVER';
  return [
    '## Browser bundle',
    '',
    `Sign-in route (everything index.html loads): **${kb(result.entryGzipBytes)} gzip**, ${verdict} the ${kb(signInBudgetBytes)} budget.`,
    '',
    '| file | gzip |',
    '|---|---|',
    ...result.entryFiles.map((f) => `| ${f.file} | ${kb(f.gzipBytes)} |`),
    '',
    'Largest lazily loaded chunks (each further screen loads one or a few; budget 100 KB gzip per screen):',
    '',
    '| file | gzip |',
    '|---|---|',
    ...result.largestLazyChunks.map((f) => `| ${f.file} | ${kb(f.gzipBytes)} |`),
    '',
  ].join('\n');
}
