import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, List, ListItem, ListItemButton, ListItemText, Stack, Typography } from '@mui/material';
import { formatDate } from '../../data-provider/formatting';
import { StatusBadge } from '../../src/datatypes/StatusBadge';
import { taskPath } from './myTaskRules';
import { taskTitle } from './taskTitle';
import { useResourceTasks } from './useResourceTasks';

/** The tasks about one resource, shown on its page (nothing when there are none). */
export function ResourceTasks({ reference }: { reference: string }) {
  const tasks = useResourceTasks(reference);
  if (tasks.error) return <Alert severity="error">{tasks.error.message}</Alert>;
  if (!tasks.data?.length) return null;
  return (
    <Box component="section" aria-labelledby="resource-tasks-heading" sx={{ mt: 2 }}>
      <Typography id="resource-tasks-heading" variant="h6" component="h2">
        Tasks ({tasks.data.length})
      </Typography>
      <List dense aria-label="Tasks of this resource">
        {tasks.data.map((task) => (
          <ListItem key={task.id} disablePadding>
            <ListItemButton component={RouterLink} to={taskPath(task)}>
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} alignItems="center" component="span">
                    <span>{taskTitle(task)}</span>
                    <StatusBadge status={task.status} />
                  </Stack>
                }
                secondary={[
                  task.owner?.display ?? (task.owner ? task.owner.reference : 'Unassigned'),
                  task.restriction?.period?.end ? `Due ${formatDate(task.restriction.period.end)}` : undefined,
                ]
                  .filter(Boolean)
                  .join(' · ')}
                slotProps={{ primary: { component: 'div' } }}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
