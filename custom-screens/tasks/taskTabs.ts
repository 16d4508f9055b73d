/** The task page's tabs (app-spec §2.4) and the fill view of a questionnaire task. */
export const TABS = ['details', 'timeline', 'notes'] as const;
export type TaskTab = (typeof TABS)[number] | 'fill';
export const TAB_LABELS: Record<(typeof TABS)[number], string> = {
  details: 'Details',
  timeline: 'Timeline',
  notes: 'Notes',
};

/** The tab is the last path segment (app-spec §2.4); anything else is Details. */
export function taskTab(rest: string): TaskTab {
  const last = rest.split('/').filter(Boolean).pop() ?? '';
  return last === 'fill' || (TABS as readonly string[]).includes(last) ? (last as TaskTab) : 'details';
}
