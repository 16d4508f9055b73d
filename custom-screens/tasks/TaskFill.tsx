import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, CircularProgress } from '@mui/material';
import type { Questionnaire, Task } from '@medplum/fhirtypes';
import { QuestionnaireForm } from '../../src/questionnaire';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { useToast } from '../../src/shell/toasts';
import { useSession } from '../../src/shell/useSession';
import { TASK_CONFLICT_MESSAGE, TASK_TOASTS } from '../../config/clinical/taskMessages';
import { isTaskConflict } from './taskConflict';
import { fillTaskTransaction } from './taskTransaction';
import { taskQueryKey, useFocus } from './useTask';
import { usePatient } from './usePatient';

/** The "fill" action: the task's Questionnaire, answered for the task's patient; submitting completes the task. */
export function TaskFill({ task, detailsPath }: { task: Task; detailsPath: string }) {
  const focus = useFocus(task);
  const patient = usePatient(task.for?.reference);
  const session = useSession();
  const client = useFhirClient();
  const queryClient = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const launch = useMemo(() => ({ patient: patient.data, user: session.profile }), [patient.data, session.profile]);
  if (focus.data?.resourceType !== 'Questionnaire') {
    if (focus.error) return <Alert severity="error">{focus.error.message}</Alert>;
    if (focus.isPending || patient.isLoading) return <CircularProgress aria-label="Loading..." />;
    return <Alert severity="info">This task’s focus is not a questionnaire.</Alert>;
  }
  if (patient.isLoading) return <CircularProgress aria-label="Loading..." />;
  const me = session.profile ? { reference: `${session.profile.resourceType}/${session.profile.id}` } : undefined;
  return (
    <QuestionnaireForm
      questionnaire={focus.data as Questionnaire}
      launchContext={launch}
      subject={task.for}
      author={me as never}
      disabled={saving}
      submitLabel="Submit and complete task"
      onSubmit={async (response) => {
        setSaving(true);
        try {
          await client.executeBatch(fillTaskTransaction(task, response));
          await queryClient.invalidateQueries({ queryKey: taskQueryKey(task.id as string) });
          toast.success(TASK_TOASTS.completed);
          navigate(detailsPath);
        } catch (error) {
          if (isTaskConflict(error)) {
            toast.error(TASK_CONFLICT_MESSAGE);
            await queryClient.invalidateQueries({ queryKey: taskQueryKey(task.id as string) });
          } else {
            toast.error(error, { persist: true });
          }
        } finally {
          setSaving(false);
        }
      }}
    />
  );
}
