import { describe, expect, it } from 'vitest';
import { recordsRun } from './botRunRecord';

const quiet = { ok: true, logs: [] };
const chatty = { ok: true, logs: ['hello'] };
const failed = { ok: false, logs: [] };

describe('recordsRun (Bot.auditEventTrigger)', () => {
  it('records every run by default, for always, and for a value it does not know', () => {
    for (const trigger of [undefined, 'always', 'sometimes'] as const) {
      const value = trigger as Parameters<typeof recordsRun>[0];
      expect([quiet, chatty, failed].map((run) => recordsRun(value, run))).toEqual([true, true, true]);
    }
  });

  it('on-error records failed runs only; on-output also runs that logged; never records none', () => {
    expect([quiet, chatty, failed].map((run) => recordsRun('on-error', run))).toEqual([false, false, true]);
    expect([quiet, chatty, failed].map((run) => recordsRun('on-output', run))).toEqual([false, true, true]);
    expect([quiet, chatty, failed].map((run) => recordsRun('never', run))).toEqual([false, false, false]);
  });
});
