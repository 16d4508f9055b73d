/**
 * Browser benchmarks in real Chromium against the built app (`npm start`'s server on a fresh
 * database): the editor of the largest base resources after its schema arrives, and a 1,000-row
 * Observation list (time to rows, longest main-thread task, select-all).
 *
 * Part of `npm run bench`; run alone with `npx tsx tests/bench/browserBenchmark.ts`, which also
 * rewrites the browser section of docs/benchmarks.md. Settings: BENCH_BROWSER_RUNS (editor runs per
 * type, default 20), BENCH_LIST_RUNS (default 5), WEB_ROOT (where the app is built and served from).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LARGEST_BASE_RESOURCES } from '../../schema-engine';
import { runImport } from '../../server/import/importRunner';
import type { ImportRequest } from '../../server/import/importPlan';
import { benchFetch, benchHeaders } from './benchFetch';
import { startBenchServer } from './benchServer';
import { generatePatientBundle } from './clinicGenerator';
import { percentile } from './latencyStats';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromiumLaunch';
import { benchChart, type ChartBenchResult } from './chartBenchmark';

/** Issue #7: the editor for the largest base resource renders within 300 ms after its schema arrives. */
export const EDITOR_BUDGET_MS = 300;
/**
 * Editors of stored resources measured besides the empty ones (issue #19): US Core Patient's
 * StructureDefinition, whose 85-element snapshot once mounted 5,176 inputs and froze the tab.
 */
export const EDITOR_PAGES: readonly { type: string; path: string }[] = [
  { type: 'StructureDefinition', path: 'StructureDefinition/us-core-patient/edit' },
];
/**
 * The list's budget (docs/benchmarks.md says why): no main-thread task longer than 200 ms once the
 * page has painted, and select-all answered (next frame) within 200 ms — the "good" threshold of
 * Interaction to Next Paint: any click during the list's rendering is answered within it.
 */
export const LIST_TASK_BUDGET_MS = 200;
export const SELECT_ALL_BUDGET_MS = 200;
export const LIST_ROWS = 1000;

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'bench-password-1';

export interface EditorMeasurement {
  type: string;
  /** The page measured, when not `/{type}/new`. */
  path?: string;
  /** Schema arrived (hearth:schema-loaded:<type>) → fields in the DOM (hearth:editor-ready), ms, one per run. */
  renderMs: number[];
  /** Navigation start → fields in the DOM, ms, one per run (boot, sign-in state, schema fetch and render). */
  totalMs: number[];
  /** Schema arrived → no nested input still loading its datatype's definition (no spinner in the form), ms. */
  settledMs: number[];
  /** Form controls in the editor when it was ready (sanity: the fields are really there). */
  controls: number;
}

export interface ListRun {
  /** Navigation start → rows rendered (table rows and '1-1,000 of' in the toolbar seen in the DOM), ms. */
  rowsMs: number;
  /** Navigation start → the list's own hearth:list-rows-rendered mark (its first), when it sets one. */
  rowsMarkMs?: number;
  rowsInDom: number;
  firstContentfulPaintMs: number;
  /** Longest main-thread task after first contentful paint up to rows rendered + 1 s, ms (0 if none ≥ 50 ms). */
  longestTaskMs: number;
  longTasks: number;
  /** Click on 'Select all' → next frame, ms; and the longest task meanwhile. */
  selectAllMs: number;
  selectAllLongestTaskMs: number;
  selectedRows: number;
}

export interface BrowserBenchResult {
  chromium: string;
  observations: number;
  editors: EditorMeasurement[];
  list: ListRun[];
  /** The patient chart (tests/bench/chartBenchmark.ts). */
  chart?: Omit<ChartBenchResult, 'chromium' | 'loadAverage'>;
  loadAverage: number;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const p95 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    95,
  );
const max = (values: number[]) => Math.max(0, ...values);

/** Enough Observations for a full 1,000-row page: generated patients (50 Observations each). */
export async function fillObservations(baseUrl: string, log: (line: string) => void): Promise<number> {
  const count = async () => {
    const response = await benchFetch(`${baseUrl}fhir/R4/Observation?_count=0&_total=accurate`);
    return ((await response.json()) as { total?: number }).total ?? 0;
  };
  let total = await count();
  if (total < LIST_ROWS + 100) {
    const patients = Math.ceil((LIST_ROWS + 200 - total) / 50);
    log(`  generating ${patients} patients (${patients * 50} Observations)…`);
    const requests: ImportRequest[] = Array.from({ length: patients }, (_, i) => ({
      file: 'generated',
      bundle: generatePatientBundle(50_000 + i),
      origins: [],
    }));
    const result = await runImport(requests, {
      fhirBase: `${baseUrl}fhir/R4/`,
      concurrency: 2,
      headers: benchHeaders(),
    });
    if (result.failed > 0) throw new Error(`Generated data failed to import: ${JSON.stringify(result.problems[0])}`);
    total = await count();
  }
  return total;
}

export async function signInThroughUi(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}signin`);
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** One cold page load of `/{type}/new` (or `path`): the User Timing marks the app sets around the editor. */
async function measureEditor(context: BrowserContext, baseUrl: string, type: string, path = `${type}/new`) {
  const page = await context.newPage();
  try {
    await page.goto(`${baseUrl}${path}`);
    await page.waitForFunction(() => performance.getEntriesByName('hearth:editor-ready').length > 0, undefined, {
      timeout: 60_000,
    });
    // Nested inputs of datatypes without their own input (Meta, …) load their definition: wait for them too.
    const settledAt = await page.waitForFunction(
      () => !document.querySelector('form [aria-label="Loading..."]') && performance.now(),
      undefined,
      { timeout: 60_000, polling: 'raf' },
    );
    const settled = (await settledAt.jsonValue()) as number;
    const marks = await page.evaluate((schemaMark) => {
      const loaded = performance.getEntriesByName(schemaMark)[0];
      if (!loaded) throw new Error(`no ${schemaMark} mark`);
      const ready = performance
        .getEntriesByName('hearth:editor-ready')
        .find((mark) => mark.startTime >= loaded.startTime);
      if (!ready) throw new Error('no hearth:editor-ready mark after the schema arrived');
      const form = document.querySelector('main form') ?? document.querySelector('form');
      return {
        renderMs: ready.startTime - loaded.startTime,
        totalMs: ready.startTime,
        controls: form?.querySelectorAll('input, textarea, [role="combobox"]').length ?? 0,
      };
    }, `hearth:schema-loaded:${type}`);
    return { ...marks, settledMs: settled - (marks.totalMs - marks.renderMs) };
  } finally {
    await page.close();
  }
}

// Installed before the app's scripts: long tasks (buffered) and the moment the list's rows appear.
const LIST_PROBE = `
  window.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__benchLongTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  window.__benchRowsAt = undefined;
  new MutationObserver(() => {
    if (window.__benchRowsAt !== undefined) return;
    const toolbar = document.querySelector('[aria-label="Search toolbar"]');
    const rows = document.querySelectorAll('tbody tr').length;
    if (rows > 0 && toolbar && /\\b1-(${LIST_ROWS}|${LIST_ROWS.toLocaleString('en-US')}) of\\b/.test(toolbar.textContent || '')) window.__benchRowsAt = performance.now();
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

async function measureList(context: BrowserContext, baseUrl: string): Promise<ListRun> {
  const page = await context.newPage();
  try {
    await page.addInitScript(LIST_PROBE);
    await page.goto(`${baseUrl}Observation?_count=${LIST_ROWS}`);
    await page.waitForFunction(
      () => (window as unknown as { __benchRowsAt?: number }).__benchRowsAt !== undefined,
      undefined,
      { timeout: 120_000, polling: 100 },
    );
    // Let the tasks that follow the rows (effects, layout of the rest) run and be reported.
    await page.waitForTimeout(1000);
    const load = await page.evaluate(() => {
      const w = window as unknown as {
        __benchRowsAt?: number;
        __benchLongTasks: { start: number; duration: number }[];
      };
      const mark = performance.getEntriesByName('hearth:list-rows-rendered')[0];
      const rowsAt = w.__benchRowsAt as number;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      const after = w.__benchLongTasks.filter((t) => t.start + t.duration > fcp && t.start <= rowsAt + 1000);
      return {
        rowsMs: rowsAt,
        rowsMarkMs: mark?.startTime,
        rowsInDom: document.querySelectorAll('tbody tr').length,
        firstContentfulPaintMs: fcp,
        longestTaskMs: Math.max(0, ...after.map((t) => t.duration)),
        longTasks: after.length,
      };
    });
    const selectAll = await page.evaluate(async () => {
      const w = window as unknown as { __benchLongTasks: { start: number; duration: number }[] };
      const box = document.querySelector('input[aria-label="Select all"]') as HTMLInputElement | null;
      if (!box) throw new Error('no Select all checkbox');
      const before = performance.now();
      box.click();
      // The next frame after the click: what the user sees answer.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const answered = performance.now() - before;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const during = w.__benchLongTasks.filter((t) => t.start + t.duration >= before);
      const rowBoxes = [...document.querySelectorAll('tbody input[type="checkbox"]')] as HTMLInputElement[];
      return {
        selectAllMs: answered,
        selectAllLongestTaskMs: Math.max(0, ...during.map((t) => t.duration)),
        selectedRows: rowBoxes.filter((b) => b.checked).length,
      };
    });
    return { ...load, ...selectAll };
  } finally {
    await page.close();
  }
}

/** Runs the browser benchmarks against a running server whose admin is signed in for the bench. */
export async function benchBrowser(baseUrl: string, log: (line: string) => void = console.log) {
  const editorRuns = Number(process.env.BENCH_BROWSER_RUNS ?? 20);
  const listRuns = Number(process.env.BENCH_LIST_RUNS ?? 5);
  const observations = await fillObservations(baseUrl, log);
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const signInPage = await context.newPage();
    await signInThroughUi(signInPage, baseUrl);
    await signInPage.close();
    const editors: EditorMeasurement[] = [];
    const pages = [...LARGEST_BASE_RESOURCES.map((type) => ({ type, path: `${type}/new` })), ...EDITOR_PAGES];
    for (const { type, path } of pages) {
      // One warm-up load (the browser's HTTP cache holds the app's scripts afterwards, as on a second visit).
      await measureEditor(context, baseUrl, type, path);
      const runs = [];
      for (let i = 0; i < editorRuns; i++) runs.push(await measureEditor(context, baseUrl, type, path));
      const measurement: EditorMeasurement = {
        type,
        path,
        renderMs: runs.map((r) => r.renderMs),
        totalMs: runs.map((r) => r.totalMs),
        settledMs: runs.map((r) => r.settledMs),
        controls: runs.at(-1)?.controls ?? 0,
      };
      log(
        `  ${path}: schema → fields median ${median(measurement.renderMs).toFixed(0)} ms, p95 ${p95(measurement.renderMs).toFixed(0)} ms (${measurement.controls} controls)`,
      );
      editors.push(measurement);
    }
    const list: ListRun[] = [];
    await measureList(context, baseUrl);
    for (let i = 0; i < listRuns; i++) {
      const run = await measureList(context, baseUrl);
      log(
        `  Observation list: rows at ${run.rowsMs.toFixed(0)} ms (${run.rowsInDom} in the DOM, mark ${run.rowsMarkMs?.toFixed(0) ?? 'none'}), longest task ${run.longestTaskMs.toFixed(0)} ms, select-all ${run.selectAllMs.toFixed(0)} ms (${run.selectedRows} checked)`,
      );
      list.push(run);
    }
    const chart = await benchChart(context, baseUrl, log);
    return { chromium: browser.version(), observations, editors, list, chart, loadAverage: loadavg()[0] };
  } finally {
    await browser.close();
  }
}

const yes = (ok: boolean) => (ok ? '✓' : '✗');

export function browserSection(result: BrowserBenchResult, date = new Date()): string {
  const runs = result.editors[0]?.renderMs.length ?? 0;
  const list = result.list;
  const rows = list.map((r) => r.rowsMs);
  const marks = list.flatMap((r) => (r.rowsMarkMs === undefined ? [] : [r.rowsMarkMs]));
  const tasks = list.map((r) => r.longestTaskMs);
  const selects = list.map((r) => r.selectAllMs);
  const selectTasks = list.map((r) => r.selectAllLongestTaskMs);
  return [
    '## Browser: the editor and a 1,000-row list',
    '',
    `Measured ${date.toISOString().slice(0, 16).replace('T', ' ')} UTC in Chromium ${result.chromium} (headless, \`/usr/bin/chromium\` with the`,
    "team guide's flags, 1280×800) against the built app served by `npm start`'s server on a fresh embedded database,",
    `signed in as the super admin; ${cpus().length} cores shared, load average ${result.loadAverage.toFixed(1)} at the end.`,
    'Part of `npm run bench`; run alone with `npx tsx tests/bench/browserBenchmark.ts` (rewrites this section).',
    ...(result.loadAverage > cpus().length
      ? [
          `**The machine was busy** (load average ${result.loadAverage.toFixed(1)} on ${cpus().length} cores, the benchmark's own server and browser included): the browser`,
          'and the server competed for the CPU, so these times are pessimistic; rerun on a quiet machine before judging a ✗.',
        ]
      : []),
    '',
    `**Editor** (\`/{type}/new\`, and the edit page of US Core Patient's StructureDefinition, ${runs} fresh page loads per page, scripts from the browser cache after one warm-up load):`,
    'from the User Timing mark',
    "`hearth:schema-loaded:<type>` (set when the type's schema data has arrived and its model is built,",
    "src/resources/schemaHooks.ts) to `hearth:editor-ready` (a layout effect of the editor, after the form's fields are",
    'committed to the DOM, src/resources/ResourceEditor.tsx). Nested inputs of datatypes without an input of',
    "their own (e.g. Meta) fetch their type's definition after that and show a spinner until it arrives: the",
    `"nested inputs loaded" column is when the last spinner left the form. Budget: ≤ ${EDITOR_BUDGET_MS} ms (issue #7).`,
    '',
    '| page | form controls | schema → fields median ms | p95 ms | max ms | navigation → fields median ms | schema → nested inputs loaded median ms | budget |',
    '|---|---|---|---|---|---|---|---|',
    ...result.editors.map(
      (e) =>
        `| ${e.path ?? `${e.type}/new`} | ${e.controls} | **${median(e.renderMs).toFixed(0)}** | ${p95(e.renderMs).toFixed(0)} | ${max(e.renderMs).toFixed(0)} | ${median(e.totalMs).toFixed(0)} | ${median(e.settledMs).toFixed(0)} | p95 ≤ ${EDITOR_BUDGET_MS} ${yes(p95(e.renderMs) <= EDITOR_BUDGET_MS)} |`,
    ),
    '',
    `**List** (\`/Observation?_count=${LIST_ROWS}\`, ${result.observations.toLocaleString('en')} Observations on the server, ${list.length} fresh page loads after`,
    'one warm-up). Rows rendered: the first DOM change with table rows and',
    `'1-${LIST_ROWS.toLocaleString('en-US')} of' in the toolbar (a MutationObserver installed before the app); the list's own`,
    '`hearth:list-rows-rendered` mark is shown beside it when the app sets one. Long',
    "tasks: Chromium's `longtask` PerformanceObserver entries (≥ 50 ms) from first contentful paint to 1 s after the rows.",
    'Select-all: a click on the header checkbox to the next frame. Budget: no task over',
    `${LIST_TASK_BUDGET_MS} ms after first paint and select-all within ${SELECT_ALL_BUDGET_MS} ms — the "good" threshold of Interaction to Next`,
    'Paint: a user who clicks or scrolls while the 1,000 rows arrive, or selects them all, is answered within',
    "200 ms. (The first paint itself follows the app's boot, whose script evaluation is the bundle budget's concern.)",
    'Judged on the median run: on the shared machine other jobs stretch single runs (the max column shows them).',
    '',
    '| measure | median | max | budget |',
    '|---|---|---|---|',
    `| navigation → rows rendered ms | ${median(rows).toFixed(0)} | ${max(rows).toFixed(0)} | – |`,
    `| navigation → hearth:list-rows-rendered mark ms | ${marks.length ? median(marks).toFixed(0) : 'not set'} | ${marks.length ? max(marks).toFixed(0) : '–'} | – |`,
    `| first contentful paint ms | ${median(list.map((r) => r.firstContentfulPaintMs)).toFixed(0)} | ${max(list.map((r) => r.firstContentfulPaintMs)).toFixed(0)} | – |`,
    `| table rows in the DOM | ${median(list.map((r) => r.rowsInDom))} | ${max(list.map((r) => r.rowsInDom))} | – |`,
    `| long tasks after first paint (count) | ${median(list.map((r) => r.longTasks))} | ${max(list.map((r) => r.longTasks))} | – |`,
    `| longest task after first paint ms | **${median(tasks).toFixed(0)}** | ${max(tasks).toFixed(0)} | ≤ ${LIST_TASK_BUDGET_MS} ${yes(median(tasks) <= LIST_TASK_BUDGET_MS)} |`,
    `| select-all → next frame ms | **${median(selects).toFixed(0)}** | ${max(selects).toFixed(0)} | ≤ ${SELECT_ALL_BUDGET_MS} ${yes(median(selects) <= SELECT_ALL_BUDGET_MS)} |`,
    `| longest task during select-all ms | ${median(selectTasks).toFixed(0)} | ${max(selectTasks).toFixed(0)} | – |`,
    `| rows checked after select-all | ${median(list.map((r) => r.selectedRows))} | ${max(list.map((r) => r.selectedRows))} | – |`,
    '',
  ].join('\n');
}

/** Starts its own server (fresh embedded database) and runs the section; undefined when Chromium is missing. */
export async function runBrowserBenchmark(
  root: string,
  webRoot?: string,
  log: (line: string) => void = console.log,
): Promise<BrowserBenchResult | undefined> {
  if (!existsSync(CHROMIUM_PATH)) {
    log(`No Chromium at ${CHROMIUM_PATH}: browser benchmarks skipped`);
    return undefined;
  }
  const previousWebRoot = process.env.WEB_ROOT;
  if (webRoot) process.env.WEB_ROOT = webRoot;
  try {
    const server = await startBenchServer(root);
    try {
      return await benchBrowser(server.baseUrl, log);
    } finally {
      await server.stop();
    }
  } finally {
    if (webRoot) process.env.WEB_ROOT = previousWebRoot;
    if (previousWebRoot === undefined && webRoot) delete process.env.WEB_ROOT;
  }
}

/** Replaces (or appends) the browser section of docs/benchmarks.md. */
export function writeBrowserSection(root: string, section: string): void {
  const file = join(root, 'docs', 'benchmarks.md');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const heading = '## Browser: the editor and a 1,000-row list';
  const start = current.indexOf(heading);
  if (start < 0) {
    writeFileSync(file, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  const next = current.indexOf('\n## ', start + heading.length);
  writeFileSync(
    file,
    `${current.slice(0, start)}${next < 0 ? section : `${section.trimEnd()}\n\n${current.slice(next + 1)}`}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
  console.log('== browser ==');
  runBrowserBenchmark(root, process.env.WEB_ROOT ?? join(tmpdir(), 'hearth-bench-web-browser'))
    .then((result) => {
      if (!result) return;
      const section = browserSection(result);
      console.log(`\n${section}`);
      writeBrowserSection(root, section);
      console.log('Wrote the browser section of docs/benchmarks.md');
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
