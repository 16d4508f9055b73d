import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Chip,
  CircularProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import type { CodeableConcept, Patient, Task } from '@medplum/fhirtypes';
import { formatCodeableConcept, getDisplayString } from '../../data-provider/formatting';
import { StatusBadge } from '../../src/datatypes/StatusBadge';
import { useSession } from '../../src/shell/useSession';
import { byDueDate, isForMyRoles, taskPath } from './myTaskRules';
import { TaskDueChip } from './TaskDueChip';
import { taskDetail, taskTitle } from './taskTitle';
import { useMyTasks } from './useMyTasks';

function TaskRow({ task, patients, note }: { task: Task; patients: Map<string, Patient>; note?: string }) {
  const patient = task.for?.reference ? patients.get(task.for.reference) : undefined;
  const who = patient ? getDisplayString(patient) : (task.for?.display ?? task.for?.reference ?? 'No patient');
  return (
    <ListItem disablePadding divider>
      <ListItemButton component={RouterLink} to={taskPath(task)}>
        <ListItemText
          primary={
            <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
              <span>{taskTitle(task)}</span>
              <StatusBadge status={task.status} />
              <TaskDueChip due={task.restriction?.period?.end} status={task.status} />
              {note && <Chip size="small" variant="outlined" label={note} />}
            </Stack>
          }
          secondary={[
            who,
            taskDetail(task),
            task.businessStatus ? formatCodeableConcept(task.businessStatus) : undefined,
          ]
            .filter(Boolean)
            .join(' · ')}
          slotProps={{ primary: { component: 'div' }, secondary: { component: 'div' } }}
        />
      </ListItemButton>
    </ListItem>
  );
}

function roleNote(task: Task, roles: CodeableConcept[]): string {
  return isForMyRoles(task, roles) === 'role'
    ? `For your role: ${formatCodeableConcept(task.performerType?.[0])}`
    : 'Anyone';
}

/** `/tasks`: the signed-in clinician's work list — their open tasks and the unassigned ones for their roles, due first. */
export function MyTasksPage() {
  const session = useSession();
  const me = session.profile ? `${session.profile.resourceType}/${session.profile.id}` : undefined;
  const tasks = useMyTasks(me);
  if (session.loading || tasks.isPending) {
    return tasks.isError ? null : <CircularProgress aria-label="Loading..." sx={{ m: 2 }} />;
  }
  if (tasks.error)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {tasks.error.message}
      </Alert>
    );
  const { mine, unassigned, roles, rolesReadable, patients } = tasks.data;
  const open = [...mine].sort((a, b) => byDueDate(a, b));
  const claimable = unassigned.filter((task) => isForMyRoles(task, roles)).sort((a, b) => byDueDate(a, b));
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        My tasks
      </Typography>
      <Paper variant="outlined" component="section" aria-labelledby="mine-heading" sx={{ mb: 2 }}>
        <Typography id="mine-heading" variant="h6" component="h2" sx={{ px: 2, pt: 1.5 }}>
          Assigned to me ({open.length})
        </Typography>
        {open.length === 0 ? (
          <Typography sx={{ px: 2, pb: 2 }}>Nothing assigned to you is open.</Typography>
        ) : (
          <List aria-label="Assigned to me">
            {open.map((task) => (
              <TaskRow key={task.id} task={task} patients={patients} />
            ))}
          </List>
        )}
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="unassigned-heading">
        <Typography id="unassigned-heading" variant="h6" component="h2" sx={{ px: 2, pt: 1.5 }}>
          Unassigned, for my roles ({claimable.length})
        </Typography>
        {roles.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2 }}>
            {rolesReadable
              ? 'You have no PractitionerRole yet, so only tasks that name no role are listed.'
              : 'Your access policy does not include roles (PractitionerRole), so only tasks that name no role are listed.'}
          </Typography>
        )}
        {claimable.length === 0 ? (
          <Typography sx={{ px: 2, pb: 2 }}>No unassigned tasks for you.</Typography>
        ) : (
          <List aria-label="Unassigned, for my roles">
            {claimable.map((task) => (
              <TaskRow key={task.id} task={task} patients={patients} note={roleNote(task, roles)} />
            ))}
          </List>
        )}
      </Paper>
    </Box>
  );
}
