/**
 * The two sort entries of a column menu, worded by the search parameter's type: dates by age,
 * numbers and quantities by size (an alphabetical "A to Z" reads wrong for 9 before 10), text A to Z.
 */
export function sortLabels(type: string | undefined): { ascending: string; descending: string } {
  if (type === 'date' || type === 'datetime' || type === 'dateTime') {
    return { ascending: 'Sort Oldest to Newest', descending: 'Sort Newest to Oldest' };
  }
  if (type === 'number' || type === 'quantity') {
    return { ascending: 'Sort Lowest First', descending: 'Sort Highest First' };
  }
  return { ascending: 'Sort A to Z', descending: 'Sort Z to A' };
}
