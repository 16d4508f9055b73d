import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverNodeFlags } from './serverNodeFlags';

describe('the server node flags', () => {
  it('are the ones npm start runs the server with', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.start).toBe(`node ${serverNodeFlags.join(' ')} scripts/start.mjs`);
  });
});
