import { Link as RouterLink } from 'react-router-dom';
import { Alert, List, ListItem, ListItemButton, ListItemText, Paper, Stack, Typography } from '@mui/material';
import type { Task } from '@medplum/fhirtypes';
import { taskDetail, taskTitle } from '../tasks/taskTitle';
import { StatusBadge } from '../../src/datatypes/StatusBadge';
import { TaskDueChip } from '../tasks/TaskDueChip';

/** "Required actions (n)": the patient's open tasks, how urgent each is, each opening its task page. */
export function RequiredActions({
  patientId,
  tasks,
  error,
}: {
  patientId: string;
  tasks: Task[] | undefined;
  error?: Error | null;
}) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby="required-actions-heading" sx={{ p: 2, mb: 2 }}>
      <Typography id="required-actions-heading" variant="h6" component="h2">
        Required actions ({tasks?.length ?? '…'})
      </Typography>
      {error && <Alert severity="error">{error.message}</Alert>}
      {tasks && tasks.length === 0 && <Typography>No open tasks for this patient.</Typography>}
      {tasks && tasks.length > 0 && (
        <List dense aria-label="Required actions">
          {tasks.map((task) => (
            <ListItem key={task.id} disablePadding>
              <ListItemButton component={RouterLink} to={`/Patient/${patientId}/task/${task.id}/details`}>
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} alignItems="center" component="span">
                      <span>{taskTitle(task)}</span>
                      <StatusBadge status={task.status} />
                      <TaskDueChip due={task.restriction?.period?.end} status={task.status} />
                    </Stack>
                  }
                  secondary={taskDetail(task)}
                  slotProps={{ primary: { component: 'div' } }}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
