import { Box, Link } from '@mui/material';
import type { OpenTaskCounts } from './rules/openTasks';

export interface OpenTasksLinkProps {
  href: string;
  /** Undefined while loading, or when the count could not be had: the link then names no number. */
  counts?: OpenTaskCounts;
}

/** "3 open tasks · 1 overdue" to the chart's Tasks tab; overdue in the error colour and in words. */
export function OpenTasksLink({ href, counts }: OpenTasksLinkProps) {
  if (!counts) {
    return (
      <Link href={href} variant="body2">
        Open tasks
      </Link>
    );
  }
  if (counts.open === 0) {
    return (
      <Link href={href} variant="body2" color="text.secondary">
        No open tasks
      </Link>
    );
  }
  const atLeast = counts.capped ? '+' : '';
  return (
    <Link href={href} variant="body2">
      {`${counts.open}${atLeast} open ${counts.open === 1 ? 'task' : 'tasks'}`}
      {counts.overdue > 0 && (
        <Box component="span" sx={{ color: 'error.main', fontWeight: 600 }}>
          {` · ${counts.overdue}${atLeast} overdue`}
        </Box>
      )}
    </Link>
  );
}
