import { describe, expect, it } from 'vitest';
import { rowsNeeded, splitTabs, type TabOverflowInput } from './tabOverflow';

// Five tabs of 100 px, the active one the first, nothing else in the bar, two rows allowed.
const base: TabOverflowInput = {
  tabWidths: [100, 100, 100, 100, 100],
  activeIndex: 0,
  availableWidth: 0,
  endWidth: 0,
  moreWidth: 60,
  maxRows: 2,
};

describe('rowsNeeded', () => {
  it('wraps in order, a row at a time, and gives a too-wide item a row of its own', () => {
    expect(rowsNeeded([], 300)).toBe(0);
    expect(rowsNeeded([100, 100, 100], 300)).toBe(1);
    expect(rowsNeeded([100, 100, 100, 1], 300)).toBe(2);
    // No filling of earlier gaps: 250 starts row 2, and 50 then fits beside it.
    expect(rowsNeeded([100, 250, 50], 300)).toBe(2);
    expect(rowsNeeded([400, 100], 300)).toBe(2);
  });
});

describe('splitTabs', () => {
  it('keeps every tab in the bar before the bar has been measured', () => {
    expect(splitTabs(base)).toEqual({ visible: [0, 1, 2, 3, 4], overflow: [] });
  });

  it('keeps every tab in the bar when they fit on one row or wrap onto two', () => {
    expect(splitTabs({ ...base, availableWidth: 500 })).toEqual({ visible: [0, 1, 2, 3, 4], overflow: [] });
    expect(splitTabs({ ...base, availableWidth: 300 })).toEqual({ visible: [0, 1, 2, 3, 4], overflow: [] });
  });

  it('keeps the leading tabs that fit two rows beside the More button and puts the rest in the menu, in order', () => {
    // Rows of 250 - 60 = 190 px: one tab a row.
    expect(splitTabs({ ...base, availableWidth: 250 })).toEqual({ visible: [0, 1], overflow: [2, 3, 4] });
    // Three rows allowed: one more in the bar.
    expect(splitTabs({ ...base, availableWidth: 160, maxRows: 3 })).toEqual({ visible: [0, 1, 2], overflow: [3, 4] });
  });

  it('takes the end column (the Apps button) from every row, and the wider of it and More once tabs overflow', () => {
    // 300 holds all five in two rows; beside a 50 px end column (rows of 250) it takes three, so More
    // joins the column, which is then 60 px wide: rows of 240, two tabs each.
    expect(splitTabs({ ...base, availableWidth: 300, endWidth: 50 })).toEqual({
      visible: [0, 1, 2, 3],
      overflow: [4],
    });
    // With an 80 px end column the rows are 220 px (not 300 - 80 - 60): still two tabs each.
    expect(splitTabs({ ...base, availableWidth: 300, endWidth: 80 })).toEqual({
      visible: [0, 1, 2, 3],
      overflow: [4],
    });
    // With 110 px of it the rows are 190 px: one tab each.
    expect(splitTabs({ ...base, availableWidth: 300, endWidth: 110 })).toEqual({
      visible: [0, 1],
      overflow: [2, 3, 4],
    });
  });

  it('never puts the active tab in the menu: it takes the last place, and the tabs it displaces go into the menu', () => {
    expect(splitTabs({ ...base, availableWidth: 250, activeIndex: 3 })).toEqual({
      visible: [0, 3],
      overflow: [1, 2, 4],
    });
    // A wide active tab can displace more than one.
    expect(splitTabs({ ...base, tabWidths: [100, 100, 100, 100, 250], availableWidth: 310, activeIndex: 4 })).toEqual({
      visible: [0, 1, 4],
      overflow: [2, 3],
    });
    // Already among those that fit: nothing moves.
    expect(splitTabs({ ...base, availableWidth: 250, activeIndex: 1 })).toEqual({
      visible: [0, 1],
      overflow: [2, 3, 4],
    });
  });

  it('keeps the active tab, or with none the first, in the bar even when nothing else fits beside it', () => {
    expect(splitTabs({ ...base, availableWidth: 100, maxRows: 1, activeIndex: 2 })).toEqual({
      visible: [2],
      overflow: [0, 1, 3, 4],
    });
    // Wider than the row beside More: shown cut short rather than an empty bar.
    expect(splitTabs({ ...base, availableWidth: 100, maxRows: 1, activeIndex: -1 })).toEqual({
      visible: [0],
      overflow: [1, 2, 3, 4],
    });
    expect(splitTabs({ ...base, availableWidth: 250, activeIndex: -1 })).toEqual({
      visible: [0, 1],
      overflow: [2, 3, 4],
    });
  });
});
