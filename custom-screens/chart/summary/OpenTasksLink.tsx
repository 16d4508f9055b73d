import { Box, Typography } from '@mui/material';
import { SummaryLink } from './SummaryLink';
import { formlessTasksWords, type OpenTaskCounts } from './rules/openTasks';

export interface OpenTasksLinkProps {
  href: string;
  /** Undefined while loading, or when the count could not be had: the link then names no number. */
  counts?: OpenTaskCounts;
  /**
   * False for a deceased patient: the overdue count stays (a death certificate is due too), but not
   * in the error colour, which says that a patient is waiting for the work.
   */
  overdueAsAlarm?: boolean;
  /**
   * False for a viewer the chart offers no Encounter tab (the front desk): the words about the visit
   * note's Required actions would point at a tab they cannot open (useSeesRequiredActions).
   */
  seesRequiredActions?: boolean;
}

/**
 * "3 open tasks · 1 overdue" to the chart's Tasks tab; overdue in the error colour and in words (in
 * words alone, the link's colour, when not an alarm).
 */
export function OpenTasksLink({ href, counts, overdueAsAlarm = true, seesRequiredActions = true }: OpenTasksLinkProps) {
  if (!counts) {
    return (
      <SummaryLink href={href} variant="body2">
        Open tasks
      </SummaryLink>
    );
  }
  if (counts.open === 0) {
    return (
      <SummaryLink href={href} variant="body2" color="text.secondary">
        No open tasks
      </SummaryLink>
    );
  }
  const atLeast = counts.capped ? '+' : '';
  // The visit note's Required actions counts only tasks with a form: said here, so that "4 open
  // tasks" beside "Required actions (3)" is not read as a task lost.
  const formless = formlessTasksWords(counts, { seesRequiredActions });
  return (
    <>
      <SummaryLink href={href} variant="body2">
        {`${counts.open}${atLeast} open ${counts.open === 1 ? 'task' : 'tasks'}`}
        {counts.overdue > 0 && (
          <Box component="span" sx={overdueAsAlarm ? { color: 'error.main', fontWeight: 600 } : undefined}>
            {` · ${counts.overdue}${atLeast} overdue`}
          </Box>
        )}
      </SummaryLink>
      {formless && (
        <Typography
          variant="caption"
          color="text.secondary"
          data-formless-tasks
          sx={{ display: 'block', maxWidth: 300, textAlign: 'inherit' }}
        >
          {formless.header}
        </Typography>
      )}
    </>
  );
}
