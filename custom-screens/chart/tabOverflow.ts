/**
 * Which of the chart's tabs stay in the tab bar and which go into its "More" menu.
 *
 * The tabs wrap onto up to `maxRows` rows beside the bar's end column (its other controls, such
 * as "Apps"), so that every tab is in sight at a glance where they fit. Where they do not, the
 * "More" button joins the end column, and the bar keeps the leading tabs that fit beside it; the
 * rest go into its menu, in their order. The active tab is never in the
 * menu: when it would be, it takes the last place in the bar and the tabs before it that no
 * longer fit go into the menu instead (its route is unchanged, only where it is shown).
 */
export interface TabOverflowInput {
  /** Each tab's width in px, in the bar's order. */
  tabWidths: readonly number[];
  /** The active tab's index in `tabWidths`, or -1 when no tab is active. */
  activeIndex: number;
  /** The bar's width in px; 0 before it has been measured. */
  availableWidth: number;
  /** The end column's width in px without the "More" button: taken from every row. */
  endWidth: number;
  /** The "More" button's width in px: in the end column when tabs overflow (which is then as wide as the wider). */
  moreWidth: number;
  /** Rows the tabs may take before the rest go into the menu. */
  maxRows: number;
}

export interface TabOverflow {
  /** Indexes of the tabs shown in the bar, in order. */
  visible: number[];
  /** Indexes of the tabs in the "More" menu, in order; empty when all fit. */
  overflow: number[];
}

/** Rows that items of these widths take when wrapped, in order, into rows `rowWidth` wide. */
export function rowsNeeded(widths: readonly number[], rowWidth: number): number {
  let rows = 0;
  let used = 0;
  for (const width of widths) {
    if (rows === 0 || used + width > rowWidth) {
      // A tab wider than a whole row still starts its own row (it is clipped, not dropped).
      rows += 1;
      used = width;
    } else {
      used += width;
    }
  }
  return rows;
}

export function splitTabs(input: TabOverflowInput): TabOverflow {
  const { tabWidths, activeIndex, availableWidth, endWidth, moreWidth, maxRows } = input;
  const all = tabWidths.map((_, index) => index);
  // Not measured yet (first render, a test DOM): everything in the bar, as without this rule.
  if (availableWidth <= 0) return { visible: all, overflow: [] };
  if (rowsNeeded(tabWidths, availableWidth - endWidth) <= maxRows) return { visible: all, overflow: [] };

  const rowWidth = availableWidth - Math.max(endWidth, moreWidth);
  const hasActive = activeIndex >= 0 && activeIndex < tabWidths.length;
  for (let leading = tabWidths.length - 1; leading >= 0; leading--) {
    const visible = all.slice(0, leading);
    if (hasActive && activeIndex >= leading) visible.push(activeIndex);
    const widths = visible.map((index) => tabWidths[index] ?? 0);
    if (leading === 0 || rowsNeeded(widths, rowWidth) <= maxRows) {
      return { visible, overflow: all.filter((index) => !visible.includes(index)) };
    }
  }
  // No tabs at all.
  return { visible: [], overflow: [] };
}
