import { Alert, Box, CircularProgress, Paper, Typography } from '@mui/material';
import type { Resource, Task } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import { useResourceHistory } from '../../src/resources/useResource';
import { taskChangeLine, taskChanges } from './taskChanges';

/** The Timeline tab: every version of the task, newest first, with who changed what. */
export function TaskTimeline({ task }: { task: Task }) {
  const history = useResourceHistory('Task', task.id as string);
  if (history.error) return <Alert severity="error">{history.error.message}</Alert>;
  if (history.isPending) return <CircularProgress aria-label="Loading..." />;
  const versions = (history.data?.entry ?? []).map((entry) => entry.resource).filter((r): r is Resource => !!r);
  return (
    <Box component="ol" aria-label="Task timeline" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
      {versions.map((version, index) => {
        const previous = versions[index + 1];
        const changes = previous ? taskChanges(previous as Task, version as Task) : [];
        return (
          <Paper component="li" variant="outlined" key={version.meta?.versionId ?? index} sx={{ p: 1.5 }}>
            <Typography variant="subtitle2" component="p">
              {previous ? 'Changed' : 'Created'} · {formatDateTime(version.meta?.lastUpdated)} ·{' '}
              {version.meta?.author?.display ?? version.meta?.author?.reference ?? ''}
            </Typography>
            {changes.slice(0, 8).map((change, changeIndex) => (
              <Typography key={changeIndex} variant="body2" sx={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>
                {taskChangeLine(change)}
              </Typography>
            ))}
          </Paper>
        );
      })}
    </Box>
  );
}
