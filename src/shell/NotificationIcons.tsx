import { Link as RouterLink } from 'react-router-dom';
import { Badge, IconButton, Stack, Tooltip } from '@mui/material';
import type { Reference } from '@medplum/fhirtypes';
import MailIcon from '@mui/icons-material/MailOutline';
import TaskIcon from '@mui/icons-material/TaskAlt';
import NotificationsIcon from '@mui/icons-material/NotificationsNone';
import { useLiveCount } from './useLiveCount';
import { openTasksQuery, unreadMailQuery } from './notificationQueries';

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
  return (
    <Stack direction="row" spacing={0.5} alignItems="center">
      <Tooltip title="Mail">
        <IconButton
          color="inherit"
          component={RouterLink}
          to={`/Communication?${mailQuery ?? ''}`}
          aria-label={countLabel('Mail', mail)}
          data-live={mailLive}
        >
          <Badge badgeContent={mail} color="error" max={99} data-testid="mail-count">
            <MailIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Tooltip title="Tasks">
        <IconButton
          color="inherit"
          component={RouterLink}
          to={`/Task?${taskQuery ?? ''}`}
          aria-label={countLabel('Tasks', tasks)}
          data-live={tasksLive}
        >
          <Badge badgeContent={tasks} color="error" max={99} data-testid="task-count">
            <TaskIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      {ePrescribing && (
        <Tooltip title="E-prescribing notifications">
          {/* The count arrives with the e-prescribing integration; until then it shows 0. */}
          <IconButton color="inherit" component={RouterLink} to="/dosespot" aria-label="E-prescribing notifications: 0">
            <Badge badgeContent={0} showZero color="error">
              <NotificationsIcon />
            </Badge>
          </IconButton>
        </Tooltip>
      )}
    </Stack>
  );
}
