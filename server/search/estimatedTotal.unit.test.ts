import { describe, expect, it, vi } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { ESTIMATE_COUNTED_UP_TO } from '../../data-provider/search/estimatedTotal';
import { seesEveryRow, totalFromBoundedCount } from './estimatedTotal';
import { estimatedTotalReplay } from './estimatedTotalReplay.test-support';

describe('totalFromBoundedCount (the rule)', () => {
  const planner = (rows: number) => vi.fn(async () => rows);

  it('answers the count when it stayed within the cap, without asking the planner', async () => {
    for (const seesAll of [false, true]) {
      const rows = planner(123_456);
      expect(await totalFromBoundedCount(0, seesAll, rows)).toBe(0);
      expect(await totalFromBoundedCount(ESTIMATE_COUNTED_UP_TO, seesAll, rows)).toBe(ESTIMATE_COUNTED_UP_TO);
      expect(rows).not.toHaveBeenCalled();
    }
  });

  it('answers nothing above the cap to a caller limited to some rows, without asking the planner', async () => {
    const rows = planner(123_456);
    expect(await totalFromBoundedCount(ESTIMATE_COUNTED_UP_TO + 1, false, rows)).toBeUndefined();
    expect(rows).not.toHaveBeenCalled();
  });

  it("answers the planner's estimate above the cap to a caller who sees every row, never below what was counted", async () => {
    expect(await totalFromBoundedCount(ESTIMATE_COUNTED_UP_TO + 1, true, planner(123_456))).toBe(123_456);
    expect(await totalFromBoundedCount(ESTIMATE_COUNTED_UP_TO + 1, true, planner(3))).toBe(ESTIMATE_COUNTED_UP_TO + 1);
  });

  it('sees every row only without a visibility clause', () => {
    expect(seesEveryRow({})).toBe(true);
    expect(seesEveryRow({ visible: () => 'TRUE' })).toBe(false);
  });
});

estimatedTotalReplay(embeddedTestDatabase('estimated-total'));
