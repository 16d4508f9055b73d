import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverStartCommand } from './serverNodeFlags';

describe('the server node flags', () => {
  it('and environment are the ones npm start runs the server with', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.start).toBe(serverStartCommand('scripts/start.mjs'));
    expect(manifest.scripts.start).toBe(
      'MALLOC_TRIM_THRESHOLD_=1048576 node --expose-gc --max-semi-space-size=32 --no-allocation-site-pretenuring scripts/start.mjs',
    );
  });
});
