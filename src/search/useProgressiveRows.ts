import { useEffect, useState } from 'react';

/** Rows committed in the first paint of a page; the rest follow in steps of ROW_STEP. */
export const FIRST_ROWS = 100;
export const ROW_STEP = 150;

/**
 * How many of `rows` to render now: a first screenful at once, then the rest a step per task, so a
 * page of 1,000 rows never holds the main thread in one long commit (style and layout of every row)
 * and input stays answered while it fills in. A new page starts over.
 */
export function useProgressiveRows<T>(rows: readonly T[]): readonly T[] {
  const [state, setState] = useState({ rows, count: FIRST_ROWS });
  // A new page resets during render (React's pattern for state derived from props): no extra commit.
  const current = state.rows === rows ? state : { rows, count: FIRST_ROWS };
  if (current !== state) setState(current);
  const done = current.count >= rows.length;
  useEffect(() => {
    if (done) return;
    // A macrotask per step: the browser paints and handles input between steps.
    const handle = setTimeout(() => setState((s) => (s.rows === rows ? { rows, count: s.count + ROW_STEP } : s)), 0);
    return () => clearTimeout(handle);
  }, [done, rows, current.count]);
  return done ? rows : rows.slice(0, current.count);
}
