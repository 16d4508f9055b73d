import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Paper, Stack, TextField, Typography } from '@mui/material';
import type { Coding, Reference, Task } from '@medplum/fhirtypes';
import { getDisplayString } from '../../data-provider/formatting';
import { ReferenceInput } from '../../src/datatypes/ReferenceInput';
import { useSession } from '../../src/shell/useSession';
import { TASK_TOASTS } from '../../config/clinical/taskMessages';
import { PRACTITIONER_ROLE_VALUE_SET, TASK_BUSINESS_STATUS_VALUE_SET } from '../../config/clinical/taskTerminology';
import {
  businessStatusPatch,
  completePatch,
  dueDatePatch,
  notePatch,
  ownerPatch,
  performerTypePatch,
  statusPatch,
} from './taskPatch';
import { canOwn, taskActions } from './taskActionRules';
import { TaskActionDialog } from './TaskActionDialog';
import { ValueSetCodingPicker } from './ValueSetCodingPicker';
import { useTaskActions } from './useTask';

type DialogName = 'assign' | 'role' | 'business' | 'due' | 'note' | 'delete';

const PRACTITIONER_PROFILE = ['http://hl7.org/fhir/StructureDefinition/Practitioner'];

/** The Task Actions panel (app-spec §2.4, §4): one button per action the task allows now. */
export function TaskActions({ task, patientId }: { task: Task; patientId: string | undefined }) {
  const session = useSession();
  const navigate = useNavigate();
  const actions = useTaskActions(task);
  const allowed = taskActions(task);
  const [dialog, setDialog] = useState<DialogName | undefined>();
  // What the user typed or chose stays here when a save fails (a conflict reloads only the task).
  const [owner, setOwner] = useState<Reference | undefined>();
  const [role, setRole] = useState<Coding | undefined>();
  const [business, setBusiness] = useState<Coding | undefined>();
  const [dueDate, setDueDate] = useState(task.restriction?.period?.end?.slice(0, 10) ?? '');
  const [note, setNote] = useState('');
  const me = session.profile
    ? { reference: `${session.profile.resourceType}/${session.profile.id}`, display: getDisplayString(session.profile) }
    : undefined;
  const close = () => setDialog(undefined);
  const focusPath = task.focus?.reference;
  const chartBase = patientId ? `/Patient/${patientId}` : '';

  const button = (label: string, onClick: () => void, show = true) =>
    show && (
      <Button key={label} variant="outlined" fullWidth onClick={onClick} disabled={actions.pending}>
        {label}
      </Button>
    );

  return (
    <Paper
      component="aside"
      aria-labelledby="task-actions-heading"
      variant="outlined"
      // Its width is the task page's to give: beside the task, or under it when the page is narrow.
      sx={{ p: 2 }}
    >
      <Typography id="task-actions-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        Task Actions
      </Typography>
      <Stack spacing={1}>
        {button(
          'Claim Task',
          () => me && void actions.run(TASK_TOASTS.claimed, (t) => ownerPatch(t, me)),
          allowed.claim && canOwn(me),
        )}
        {button(task.owner ? 'Reassign' : 'Assign', () => setDialog('assign'))}
        {button('Assign to a Role', () => setDialog('role'))}
        {button('Update Business Status', () => setDialog('business'))}
        {button(task.restriction?.period?.end ? 'Change Due-Date' : 'Add Due-Date', () => setDialog('due'))}
        {button('Add a Note', () => setDialog('note'))}
        {button(
          'Pause Task',
          () => void actions.run(TASK_TOASTS.paused, (t) => statusPatch(t, 'on-hold')),
          allowed.pause,
        )}
        {button(
          'Resume Task',
          () => void actions.run(TASK_TOASTS.resumed, (t) => statusPatch(t, 'in-progress')),
          allowed.resume,
        )}
        {button(
          'Review Response',
          () => void actions.run(TASK_TOASTS.completed, completePatch),
          allowed.review && focusPath?.startsWith('QuestionnaireResponse/'),
        )}
        {button(
          'Review Report',
          () => void actions.run(TASK_TOASTS.completed, completePatch),
          allowed.review && focusPath?.startsWith('DiagnosticReport/'),
        )}
        {button('Fill Questionnaire', () => navigate(`${chartBase}/task/${task.id}/fill`), allowed.fill)}
        {button('Release Care Plan', () => void actions.run(TASK_TOASTS.completed, completePatch), allowed.release)}
        {button('Complete Task', () => void actions.run(TASK_TOASTS.completed, completePatch), allowed.complete)}
        <Button
          variant="outlined"
          color="error"
          fullWidth
          onClick={() => setDialog('delete')}
          disabled={actions.pending}
        >
          Delete Task
        </Button>
      </Stack>

      <TaskActionDialog
        title={task.owner ? 'Reassign task' : 'Assign task'}
        open={dialog === 'assign'}
        onClose={close}
        ready={!!owner?.reference?.startsWith('Practitioner/')}
        submitLabel="Assign"
        onSubmit={() => actions.run(TASK_TOASTS.assigned, (t) => ownerPatch(t, owner as Reference))}
      >
        <ReferenceInput
          label="Owner"
          path="Task.owner"
          targetProfiles={PRACTITIONER_PROFILE}
          value={owner}
          onChange={setOwner}
          required
        />
      </TaskActionDialog>

      <TaskActionDialog
        title="Assign to a role"
        open={dialog === 'role'}
        onClose={close}
        ready={!!role}
        submitLabel="Assign"
        onSubmit={() => actions.run(TASK_TOASTS.roleAssigned, (t) => performerTypePatch(t, role as Coding))}
      >
        <ValueSetCodingPicker label="Role" valueSet={PRACTITIONER_ROLE_VALUE_SET} value={role} onChange={setRole} />
      </TaskActionDialog>

      <TaskActionDialog
        title="Update business status"
        open={dialog === 'business'}
        onClose={close}
        ready={!!business}
        onSubmit={() => actions.run(TASK_TOASTS.statusUpdated, (t) => businessStatusPatch(t, business as Coding))}
      >
        <ValueSetCodingPicker
          label="Business status"
          valueSet={TASK_BUSINESS_STATUS_VALUE_SET}
          value={business}
          onChange={setBusiness}
        />
      </TaskActionDialog>

      <TaskActionDialog
        title={task.restriction?.period?.end ? 'Change due date' : 'Add due date'}
        open={dialog === 'due'}
        onClose={close}
        // The date it already has is no change: saving it wrote an empty version and a blank "Changed" entry.
        ready={/^\d{4}-\d{2}-\d{2}$/.test(dueDate) && dueDate !== task.restriction?.period?.end?.slice(0, 10)}
        onSubmit={() => actions.run(TASK_TOASTS.dueDateUpdated, (t) => dueDatePatch(t, dueDate))}
      >
        <TextField
          type="date"
          label="Due date"
          value={dueDate}
          onChange={(event) => setDueDate(event.target.value)}
          required
          autoFocus
          fullWidth
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </TaskActionDialog>

      <TaskActionDialog
        title="Add a note"
        open={dialog === 'note'}
        onClose={close}
        ready={note.trim().length > 0}
        submitLabel="Add note"
        onSubmit={async () => {
          const saved = await actions.run(TASK_TOASTS.noteAdded, (t) =>
            notePatch(t, { text: note.trim(), authorReference: me, time: new Date().toISOString() }),
          );
          if (saved) setNote('');
          return saved;
        }}
      >
        <TextField
          label="Note"
          placeholder="Annotation text"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          multiline
          minRows={3}
          required
          autoFocus
          fullWidth
        />
      </TaskActionDialog>

      <TaskActionDialog
        title="Delete this task?"
        open={dialog === 'delete'}
        onClose={close}
        ready
        submitLabel="Delete"
        onSubmit={async () => {
          const deleted = await actions.remove(TASK_TOASTS.deleted);
          if (deleted) navigate(chartBase ? `${chartBase}/Task` : '/tasks');
          return deleted;
        }}
      >
        <Typography>The task is removed for everyone. Its history stays on the server.</Typography>
      </TaskActionDialog>
    </Paper>
  );
}
