import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** ARCHITECTURE.md: the sign-in route may load at most 350 KB gzip of JavaScript and CSS. */
export const signInBudgetBytes = 350_000;
/** Issue 15: opening a patient chart adds at most 100 KB gzip to what the app has loaded. */
export const chartBudgetBytes = 100_000;
/** The chart route's module (lazily imported by src/resources/routes.tsx). */
export const CHART_ROUTE_MODULE = 'custom-screens/chart/ChartPage.tsx';

/** One chunk of Vite's build manifest (`.vite/manifest.json`): its file and what it imports. */
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * The files a lazily loaded route adds to the entry: its chunk and everything it imports
 * statically (transitively), minus what the entry already loaded. Its own lazy imports
 * (other tabs, the editor) are not counted: they load when the user opens them.
 */
export function routeFiles(manifest: Record<string, ManifestChunk>, routeKey: string): string[] {
  const closure = (start: string[]) => {
    const seen = new Set<string>();
    const files = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      files.add(manifest[key].file);
      for (const css of manifest[key].css ?? []) files.add(css);
      for (const next of manifest[key].imports ?? []) visit(next);
    };
    start.forEach(visit);
    return files;
  };
  if (!manifest[routeKey]) throw new Error(`${routeKey} is not in the build manifest`);
  const entry = closure(Object.keys(manifest).filter((key) => manifest[key].isEntry));
  return [...closure([routeKey])].filter((file) => !entry.has(file));
}

export interface BundleBudgetResult {
  /** Files the browser loads before the sign-in page can render (index.html's scripts and styles). */
  entryFiles: { file: string; gzipBytes: number }[];
  entryGzipBytes: number;
  /** Every lazily loaded chunk, largest first: each further screen is one or a few of these. */
  largestLazyChunks: { file: string; gzipBytes: number }[];
  /** What opening a patient chart adds (its route chunk and static imports beyond the entry). */
  chartFiles: { file: string; gzipBytes: number }[];
  chartGzipBytes: number;
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
      '--manifest',
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
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const chartFiles = routeFiles(manifest, CHART_ROUTE_MODULE)
    .map((file) => ({ file, gzipBytes: sizeOf(file) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return {
    entryFiles,
    entryGzipBytes: entryFiles.reduce((sum, f) => sum + f.gzipBytes, 0),
    largestLazyChunks: lazy.slice(0, 5),
    chartFiles,
    chartGzipBytes: chartFiles.reduce((sum, f) => sum + f.gzipBytes, 0),
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
    `Patient chart route (\`/Patient/{id}\`: ${CHART_ROUTE_MODULE} and its static imports not already in the entry; the`,
    "tabs' own screens and the editor load later, when opened): " +
      `**${kb(result.chartGzipBytes)} gzip**, ${result.chartGzipBytes <= chartBudgetBytes ? 'within' : 'OVER'} the ${kb(chartBudgetBytes)} budget.`,
    '',
    '| file | gzip |',
    '|---|---|',
    ...result.chartFiles.map((f) => `| ${f.file} | ${kb(f.gzipBytes)} |`),
    '',
  ].join('\n');
}
