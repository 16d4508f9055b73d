import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, CircularProgress } from '@mui/material';
import type { Questionnaire, Task } from '@medplum/fhirtypes';
import { QuestionnaireForm } from '../../src/questionnaire';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { useToast } from '../../src/shell/toasts';
import { useSession } from '../../src/shell/useSession';
import { TASK_CONFLICT_MESSAGE, TASK_TOASTS } from '../../config/clinical/taskMessages';
import { backupFitsQuestionnaire, taskFillBackupKey } from '../visit-note/answerBackupRules';
import { RecoveredAnswersNotice } from '../visit-note/RecoveredAnswersNotice';
import { useAnswerBackup } from '../visit-note/useAnswerBackup';
import { isTaskConflict } from './taskConflict';
import { fillTaskTransaction } from './taskTransaction';
import { taskQueryKey, useFocus } from './useTask';
import { usePatient } from './usePatient';
import { taskResponseQueryKey } from './useTaskResponse';

/**
 * The "fill" action: the task's Questionnaire, answered for the task's patient; submitting
 * completes the task. Nothing is stored on the server before submit, so every change is kept in
 * the browser until the submit succeeds: a reload, a page left by mistake or a failed submit
 * finds the answers again, with a notice and a way to discard them.
 */
export function TaskFill({
  task,
  detailsPath,
  onCompleted,
}: {
  task: Task;
  detailsPath: string;
  /** Called once the task is completed and its Details are being opened. */
  onCompleted?: () => void;
}) {
  const focus = useFocus(task);
  const patient = usePatient(task.for?.reference);
  const session = useSession();
  const client = useFhirClient();
  const queryClient = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const launch = useMemo(() => ({ patient: patient.data, user: session.profile }), [patient.data, session.profile]);
  const account = session.profile ? `${session.profile.resourceType}/${session.profile.id}` : undefined;
  const backup = useAnswerBackup(account && task.id ? taskFillBackupKey(account, task.id) : undefined);
  const [discarded, setDiscarded] = useState(false);
  if (focus.data?.resourceType !== 'Questionnaire') {
    if (focus.error) return <Alert severity="error">{focus.error.message}</Alert>;
    if (focus.isPending || patient.isLoading) return <CircularProgress aria-label="Loading..." />;
    return <Alert severity="info">This task’s focus is not a questionnaire.</Alert>;
  }
  if (patient.isLoading) return <CircularProgress aria-label="Loading..." />;
  const questionnaire = focus.data as Questionnaire;
  const me = account ? { reference: account } : undefined;
  const recovered =
    !discarded && backup.found && backupFitsQuestionnaire(backup.found, questionnaire)
      ? backup.found.response
      : undefined;
  return (
    <>
      {recovered && (
        <RecoveredAnswersNotice
          action={
            <Button
              variant="outlined"
              color="inherit"
              size="small"
              disabled={saving}
              onClick={() => {
                backup.forget();
                setDiscarded(true);
              }}
            >
              Discard recovered answers
            </Button>
          }
        >
          Answers typed in this browser earlier are restored below. They are not submitted yet.
        </RecoveredAnswersNotice>
      )}
      <QuestionnaireForm
        // Discarding starts the form again from the questionnaire's initial values.
        key={recovered ? 'recovered' : 'fresh'}
        questionnaire={questionnaire}
        response={recovered}
        launchContext={launch}
        subject={task.for}
        author={me as never}
        disabled={saving}
        submitLabel="Submit and complete task"
        onChange={backup.keep}
        onSubmit={async (response) => {
          setSaving(true);
          try {
            const answer = await client.executeBatch(fillTaskTransaction(task, response));
            backup.forget();
            // The transaction answers with the stored task: show that rather than re-reading it
            // (a GET right after may be served from the browser's HTTP cache).
            const resources = answer.entry?.map((entry) => entry.resource) ?? [];
            const saved = resources.find((r) => r?.resourceType === 'Task');
            const stored = resources.find((r) => r?.resourceType === 'QuestionnaireResponse');
            // The Details show the stored response at once, before their search for it answers.
            if (stored) queryClient.setQueryData(taskResponseQueryKey(task.id as string), stored);
            if (saved) queryClient.setQueryData(taskQueryKey(task.id as string), saved);
            else await queryClient.invalidateQueries({ queryKey: taskQueryKey(task.id as string) });
            toast.success(TASK_TOASTS.completed);
            navigate(detailsPath);
            onCompleted?.();
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
    </>
  );
}
