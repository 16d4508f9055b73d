import { Link as RouterLink, useParams } from 'react-router-dom';
import { Alert, Box, CircularProgress, Paper, Tab, Tabs, Typography } from '@mui/material';
import { formatCodeableConcept } from '../../data-provider/formatting';
import { NO_TASK_FOUND } from '../../config/clinical/taskMessages';
import { TASK_ACTIONS_WIDTH, TASK_CONTENT_MAX_WIDTH } from '../../config/clinical/taskLayout';
import { StatusBadge } from '../../src/datatypes/StatusBadge';
import { TaskActions } from './TaskActions';
import { TaskDetails } from './TaskDetails';
import { TaskFill } from './TaskFill';
import { TaskNotes } from './TaskNotes';
import { TaskTimeline } from './TaskTimeline';
import { useTask } from './useTask';
import { useReturnToTop } from './useReturnToTop';
import { TABS, TAB_LABELS as LABELS, taskTab } from './taskTabs';

/**
 * The narrowest the task's own column may get beside the actions panel. Below it the panel goes
 * under the task. Judged on the space the page has (a container query), not the window: in the
 * chart the navigation and the patient sidebar take 600 px, so at a 1024 px window the page is
 * about 420 px wide and a side-by-side task column was squeezed to one word per line.
 */
const TASK_COLUMN_MIN_WIDTH = 320;
const SIDE_BY_SIDE = `@container task-page (min-width: ${TASK_COLUMN_MIN_WIDTH + TASK_ACTIONS_WIDTH + 48}px)`;

/** `/Patient/:patientId/task/:taskId/*`: Details, Timeline, Notes, and the Task Actions panel. */
export function TaskPage() {
  const { patientId, taskId, '*': rest = '' } = useParams();
  const task = useTask(taskId);
  const tab = taskTab(rest);
  const base = patientId ? `/Patient/${patientId}/task/${taskId}` : `/Task/${taskId}`;
  const heading = useReturnToTop<HTMLHeadingElement>();

  if (task.isPending) return <CircularProgress aria-label="Loading..." sx={{ m: 2 }} />;
  if (task.error)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {task.error.message}
      </Alert>
    );
  if (!task.data) {
    return (
      <Typography sx={{ p: 2 }} role="status">
        {NO_TASK_FOUND}
      </Typography>
    );
  }
  const current = task.data;
  return (
    <Box sx={{ containerType: 'inline-size', containerName: 'task-page' }}>
      <Box
        sx={{
          display: 'flex',
          flexDirection: 'column',
          gap: 2,
          p: { xs: 1, sm: 2 },
          [SIDE_BY_SIDE]: { flexDirection: 'row', alignItems: 'flex-start' },
        }}
      >
        <Box sx={{ flex: '1 1 auto', maxWidth: TASK_CONTENT_MAX_WIDTH, minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
            {/* Focused after a submit: the form and its button are gone, the heading says where the user is. */}
            <Typography variant="h5" component="h1" ref={heading.ref} tabIndex={-1}>
              {formatCodeableConcept(current.code) || current.description || 'Task'}
            </Typography>
            <StatusBadge status={current.status} />
          </Box>
          <Tabs
            value={tab === 'fill' ? false : tab}
            aria-label="Task tabs"
            sx={{ borderBottom: 1, borderColor: 'divider' }}
          >
            {TABS.map((name) => (
              <Tab key={name} value={name} label={LABELS[name]} component={RouterLink} to={`${base}/${name}`} />
            ))}
          </Tabs>
          <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
            {tab === 'details' && <TaskDetails task={current} patientId={patientId} />}
            {tab === 'timeline' && <TaskTimeline task={current} />}
            {tab === 'notes' && <TaskNotes task={current} />}
            {tab === 'fill' && (
              <TaskFill task={current} detailsPath={`${base}/details`} onCompleted={heading.returnToTop} />
            )}
          </Paper>
        </Box>
        <Box sx={{ flexShrink: 0, maxWidth: TASK_CONTENT_MAX_WIDTH, [SIDE_BY_SIDE]: { width: TASK_ACTIONS_WIDTH } }}>
          <TaskActions task={current} patientId={patientId} />
        </Box>
      </Box>
    </Box>
  );
}
