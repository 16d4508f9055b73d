import { Link as RouterLink } from 'react-router-dom';
import { IconButton, Stack, Tooltip } from '@mui/material';
import type { Reference } from '@medplum/fhirtypes';
import MailIcon from '@mui/icons-material/MailOutline';
import TaskIcon from '@mui/icons-material/TaskAlt';
import { useLiveCount } from './useLiveCount';
import { openTasksQuery, unreadMailListPath, unreadMailQuery } from './notificationQueries';
import { useShellSlots } from './shellSlots';
import { CountBadge } from './CountBadge';

interface NotificationIconsProps {
  profile: Reference | undefined;
  ePrescribing: boolean;
}

function countLabel(name: string, count: number | undefined): string {
  return count === undefined ? name : `${name}: ${count}`;
}

/** The header's notification slot: live counts of unread mail and open tasks, and the e-prescribing bell. */
export function NotificationIcons({ profile, ePrescribing }: NotificationIconsProps) {
  const mailQuery = unreadMailQuery(profile);
  const taskQuery = openTasksQuery(profile);
  const { count: mail, live: mailLive } = useLiveCount('Communication', mailQuery);
  const { count: tasks, live: tasksLive } = useLiveCount('Task', taskQuery);
  const { EPrescribingBell } = useShellSlots();
  return (
    <Stack direction="row" spacing={0.5} alignItems="center">
      <Tooltip title="Mail">
        <IconButton
          color="inherit"
          component={RouterLink}
          to={unreadMailListPath(profile)}
          aria-label={countLabel('Mail', mail)}
          data-live={mailLive}
        >
          <CountBadge count={mail} data-testid="mail-count">
            <MailIcon />
          </CountBadge>
        </IconButton>
      </Tooltip>
      <Tooltip title="Tasks">
        <IconButton
          color="inherit"
          component={RouterLink}
          to="/tasks"
          aria-label={countLabel('Tasks', tasks)}
          data-live={tasksLive}
        >
          <CountBadge count={tasks} data-testid="task-count">
            <TaskIcon />
          </CountBadge>
        </IconButton>
      </Tooltip>
      {/* The bell, its count and its polling come from the e-prescribing screens (ShellSlots). */}
      {ePrescribing && EPrescribingBell && <EPrescribingBell />}
    </Stack>
  );
}
