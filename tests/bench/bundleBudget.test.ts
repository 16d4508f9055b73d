import { describe, expect, it } from 'vitest';
import { routeFiles, type ManifestChunk } from './bundleBudget';

const manifest: Record<string, ManifestChunk> = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_shared.js'], css: ['assets/index.css'] },
  '_shared.js': { file: 'assets/shared.js' },
  'custom-screens/chart/ChartPage.tsx': {
    file: 'assets/ChartPage.js',
    imports: ['_shared.js', '_table.js'],
    css: ['assets/chart.css'],
  },
  '_table.js': { file: 'assets/table.js', imports: ['_deep.js'] },
  '_deep.js': { file: 'assets/deep.js' },
  'src/resources/ResourceEditor.tsx': { file: 'assets/ResourceEditor.js', imports: ['_deep.js'] },
};

describe('bundle budget: a route beyond the entry', () => {
  it('counts the route chunk, its css and its static imports transitively, not what the entry has', () => {
    expect(routeFiles(manifest, 'custom-screens/chart/ChartPage.tsx').sort()).toEqual([
      'assets/ChartPage.js',
      'assets/chart.css',
      'assets/deep.js',
      'assets/table.js',
    ]);
  });

  it('refuses a route the build does not have, rather than reporting 0 KB', () => {
    expect(() => routeFiles(manifest, 'custom-screens/chart/Missing.tsx')).toThrow(/not in the build manifest/);
  });
});
