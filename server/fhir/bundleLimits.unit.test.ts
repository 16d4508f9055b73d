import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatePatientBundle } from '../../tests/bench/clinicGenerator';
import { bundleLimits } from './bundleLimits';

/** The entry limit must let the Bundles this project imports through: Synthea's and the bench's. */
describe('bundleLimits.maxEntries', () => {
  const entriesOf = (file: string) =>
    ((JSON.parse(readFileSync(file, 'utf8')) as { entry?: unknown[] }).entry ?? []).length;

  it.each([join(__dirname, '../../tests/fixtures/synthea'), join(__dirname, '../../../shared/data/synthea-r4')])(
    'holds every Synthea patient Bundle of %s',
    (folder) => {
      if (!existsSync(folder)) return;
      const files = readdirSync(folder).filter((f) => f.endsWith('.json'));
      const largest = Math.max(...files.map((f) => entriesOf(join(folder, f))));
      expect(largest).toBeGreaterThan(0);
      expect(largest).toBeLessThanOrEqual(bundleLimits.maxEntries);
    },
  );

  it("holds the bench's generated patients", () => {
    expect(generatePatientBundle(0).entry?.length ?? 0).toBeLessThanOrEqual(bundleLimits.maxEntries);
  });
});
