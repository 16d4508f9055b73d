import { Chip } from '@mui/material';
import { formatDate } from '../../data-provider/formatting';
import { taskDueState, type TaskDueState } from './taskDueDate';

// Darker shades in light mode and lighter ones in dark mode keep the chip text at WCAG AA contrast.
const DUE_COLORS = {
  overdue: { light: ['#ffdcdc', '#8f1111'], dark: ['#6b1a1a', '#ffd0d0'] },
  today: { light: ['#fff1c2', '#6b4c00'], dark: ['#5a4500', '#ffe8a3'] },
  soon: { light: ['#fff1c2', '#6b4c00'], dark: ['#5a4500', '#ffe8a3'] },
  later: { light: ['#e8e8e8', '#333333'], dark: ['#444444', '#eeeeee'] },
  finished: { light: ['#e8e8e8', '#333333'], dark: ['#444444', '#eeeeee'] },
} as const;

function dueLabel(state: Exclude<TaskDueState, 'none'>, day: string, inDueColumn: boolean): string {
  if (state === 'overdue') return `Overdue · ${day}`;
  if (state === 'today') return inDueColumn ? 'Today' : 'Due today';
  return inDueColumn ? day : `Due ${day}`;
}

/**
 * The due date as a coloured word: overdue (red), today or within 3 days (yellow), later (grey).
 * A finished task's date (given `status`) is plain grey: nothing is late once it is done.
 * Under a "Due" column heading (`inDueColumn`) the chip does not say "Due" again.
 */
export function TaskDueChip({
  due,
  status,
  inDueColumn = false,
}: {
  due: string | undefined;
  /** The task's status; without it the date is judged as an open task's. */
  status?: string;
  inDueColumn?: boolean;
}) {
  const state = taskDueState(due, status);
  if (state === 'none') return null;
  // The date's own spaces do not break: a narrow column may wrap after "Overdue ·", never inside "8 Dec 2026".
  const label = dueLabel(state, formatDate(due).replace(/ /g, '\u00a0'), inDueColumn);
  const colors = DUE_COLORS[state];
  return (
    <Chip
      size="small"
      label={label}
      data-due={state}
      sx={(theme) => {
        const [background, text] = theme.palette.mode === 'dark' ? colors.dark : colors.light;
        // In a table column the label may wrap, so a long "Overdue · date" does not push columns off.
        const wrap = inDueColumn ? { height: 'auto', py: 0.25, '& .MuiChip-label': { whiteSpace: 'normal' } } : {};
        return { bgcolor: background, color: text, fontWeight: 600, ...wrap };
      }}
    />
  );
}
