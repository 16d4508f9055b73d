import { Link as RouterLink } from 'react-router-dom';
import { Alert, Link } from '@mui/material';
import { chartPath } from './chartPaths';
import { useFormlessTasksWords } from './useFormlessTasksWords';

/**
 * While some open tasks have no form to act on, says that the visit note's Required actions (app-spec
 * §4: tasks with a focus) leaves them out, so that its count and the chart's do not seem to
 * disagree: above the Tasks tab's list, and under Required actions itself, with the way to the
 * Tasks tab that lists them.
 */
export function FormlessTasksLine({
  patientId,
  place = 'tasksTab',
}: {
  patientId: string;
  place?: 'tasksTab' | 'requiredActions';
}) {
  const words = useFormlessTasksWords(patientId);
  if (!words) return null;
  return (
    <Alert
      role="status"
      severity="info"
      data-formless-tasks-line
      sx={place === 'tasksTab' ? { mb: 1, py: 0 } : { mt: 1, py: 0 }}
    >
      {place === 'tasksTab' ? (
        words.tasksTab
      ) : (
        <>
          {words.requiredActions} —{' '}
          <Link component={RouterLink} to={chartPath(patientId, 'Task')}>
            see the Tasks tab
          </Link>
        </>
      )}
    </Alert>
  );
}
