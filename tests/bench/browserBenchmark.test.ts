import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserSection, writeBrowserSection, type BrowserBenchResult } from './browserBenchmark';

const result = (renderMs: number[], longestTaskMs: number, selectAllMs: number): BrowserBenchResult => ({
  chromium: '1.0',
  observations: 1200,
  loadAverage: 1,
  editors: [
    {
      type: 'ExplanationOfBenefit',
      renderMs,
      totalMs: renderMs.map((ms) => ms + 1000),
      settledMs: renderMs.map((ms) => ms + 50),
      controls: 85,
    },
    {
      type: 'StructureDefinition',
      path: 'StructureDefinition/us-core-patient/edit',
      renderMs: renderMs.map((ms) => ms + 10),
      totalMs: renderMs.map((ms) => ms + 2000),
      settledMs: renderMs.map((ms) => ms + 60),
      controls: 48,
    },
  ],
  list: [
    {
      rowsMs: 900,
      rowsMarkMs: 880,
      rowsInDom: 40,
      firstContentfulPaintMs: 300,
      longestTaskMs,
      longTasks: 1,
      selectAllMs,
      selectAllLongestTaskMs: 20,
      selectedRows: 1000,
    },
  ],
});

describe('browser benchmark report', () => {
  it('judges the editor by its p95 against 300 ms and the list by its longest task and select-all', () => {
    const within = browserSection(result([100, 120, 290], 150, 80));
    expect(within).toContain('| ExplanationOfBenefit/new | 85 | **120** | 290 | 290 | 1120 | 170 | p95 ≤ 300 ✓ |');
    // A stored resource's editor (issue #19's big profile) is listed by its page.
    expect(within).toContain(
      '| StructureDefinition/us-core-patient/edit | 48 | **130** | 300 | 300 | 2120 | 180 | p95 ≤ 300 ✓ |',
    );
    expect(within).toMatch(/longest task after first paint ms \| \*\*150\*\* \| 150 \| ≤ 200 ✓/);
    expect(within).toMatch(/select-all → next frame ms \| \*\*80\*\* \| 80 \| ≤ 200 ✓/);
    const over = browserSection(result([100, 120, 310], 250, 201));
    expect(over).toContain('p95 ≤ 300 ✗');
    expect(over).toMatch(/≤ 200 ✗[\s\S]*≤ 200 ✗/);
  });

  it('replaces only its own section of docs/benchmarks.md', () => {
    const root = mkdtempSync(join(tmpdir(), 'hearth-browser-report-'));
    mkdirSync(join(root, 'docs'));
    const file = join(root, 'docs', 'benchmarks.md');
    writeFileSync(file, '# Benchmarks\n\n## Import\n\nA\n');
    writeBrowserSection(root, '## Browser: the editor and a 1,000-row list\n\nfirst\n');
    expect(readFileSync(file, 'utf8')).toBe(
      '# Benchmarks\n\n## Import\n\nA\n\n## Browser: the editor and a 1,000-row list\n\nfirst\n',
    );
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n## Later\n\nB\n`);
    writeBrowserSection(root, '## Browser: the editor and a 1,000-row list\n\nsecond\n');
    expect(readFileSync(file, 'utf8')).toBe(
      '# Benchmarks\n\n## Import\n\nA\n\n## Browser: the editor and a 1,000-row list\n\nsecond\n\n## Later\n\nB\n',
    );
  });
});
