import { Link as RouterLink } from 'react-router-dom';
import { Alert, List, ListItem, ListItemButton, ListItemText, Paper, Stack, Typography } from '@mui/material';
import type { Task } from '@medplum/fhirtypes';
import { taskDetail, taskTitle } from '../tasks/taskTitle';
import { StatusBadge } from '../../src/datatypes/StatusBadge';
import { TaskDueChip } from '../tasks/TaskDueChip';
import { FormlessTasksLine, useFormlessTasksWords } from '../chart';

/**
 * "Required actions (n)": the patient's open tasks with a form to act on (app-spec §4), how urgent
 * each is, each opening its task page; under them, as the chart's header and Tasks tab say it, the
 * open tasks without a form that it leaves out (the header counts them, so 4 there is 3 here).
 */
export function RequiredActions({
  patientId,
  tasks,
  error,
}: {
  patientId: string;
  tasks: Task[] | undefined;
  error?: Error | null;
}) {
  const formless = useFormlessTasksWords(patientId);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="required-actions-heading" sx={{ p: 2, mb: 2 }}>
      <Typography id="required-actions-heading" variant="h6" component="h2">
        Required actions ({tasks?.length ?? '…'})
      </Typography>
      {error && <Alert severity="error">{error.message}</Alert>}
      {tasks && tasks.length === 0 && (
        // "No open tasks" would be untrue above the line that names the open ones without a form.
        <Typography>{formless ? 'No open task has a form to act on.' : 'No open tasks for this patient.'}</Typography>
      )}
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
      {tasks && <FormlessTasksLine patientId={patientId} place="requiredActions" />}
    </Paper>
  );
}
