/**
 * Which `search_date` rows overlap a range, written so that PostgreSQL answers it from two indexes:
 *
 * - rows spanning a day or less (a dateTime, an instant, a date, an Encounter of a few hours: ~99 %
 *   of the rows of the Synthea patients) from the b-tree on (resource_type, code, low, high): such a
 *   row overlaps [from, to] only if it starts between `from` minus a day and `to`, a bounded scan;
 * - longer and open-ended spans (a month, a year, a Period without an end) from the GiST range
 *   index, which holds only those rows (migration 12).
 *
 * A GiST insert cost ~17 µs of the database's time per row against ~3 µs for the two other indexes
 * together (issue 20, docs/performance.md): keeping the point-like rows out of it took about a tenth of
 * PostgreSQL's work per imported resource. Each branch tests the overlap itself and every
 * overlapping row is found by one of them (`high - low` is NULL when a bound is missing), so the
 * answer is the same as a single overlap test.
 */

/** The GiST index's predicate, exactly as the index was created: PostgreSQL proves the branch implies it. */
export const longDateSpan = (t: string) =>
  `(${t}.low IS NULL OR ${t}.high IS NULL OR ${t}.high - ${t}.low > interval '1 day')`;

/**
 * The overlap of row alias `t` with the range from `from` to `to` (SQL expressions of type
 * timestamptz), `bounds` being the range's inclusivity (`[]`, `[)`, `(]`, `()`).
 *
 * The first branch is written as plain comparisons of the columns, not as a range test, so that
 * PostgreSQL estimates its rows from the columns' statistics: with a range test there it guessed a
 * tenth of the matches and sorted them all instead of walking the resources in `_sort` order.
 * It needs no "a day or less" of its own: a longer row it finds overlaps too, and one it misses
 * (it starts earlier) is found by the second branch.
 */
export function dateOverlapCondition(t: string, from: string, to: string, bounds: string): string {
  const startsBeforeEnd = `${t}.low ${bounds[1] === ']' ? '<=' : '<'} ${to}`;
  const endsAfterStart = `${t}.high ${bounds[0] === '[' ? '>=' : '>'} ${from}`;
  const short = `${t}.low >= ${from} - interval '1 day' AND ${startsBeforeEnd} AND ${endsAfterStart}`;
  const overlaps = `tstzrange(${t}.low, ${t}.high, '[]') && tstzrange(${from}, ${to}, '${bounds}')`;
  return `((${short}) OR (${overlaps} AND ${longDateSpan(t)}))`;
}
