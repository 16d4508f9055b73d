import { useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { getDisplayString } from '../../data-provider/formatting';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { useSession } from '../../src/shell/useSession';
import { useToast, useToastKeepClear } from '../../src/shell/toasts';
import { SOAP_NOTE_MENOPAUSE_TITLE } from '../../config/questionnaires';
import { useReturnToTop } from '../tasks';
import { usePatient } from '../tasks/usePatient';
import { RequiredActions } from './RequiredActions';
import { VisitNoteForm } from './VisitNoteForm';
import { useOpenTasks, useVisitNoteDraft, useVisitNoteQuestionnaire } from './useVisitNoteData';
import { createdIds, visitNoteTransaction } from './visitNoteTransaction';

/** A row of buttons the toasts stand clear of (the "submitted" toast covered the next steps). */
function ToastFreeRow({ children }: { children: ReactNode }) {
  const row = useRef<HTMLDivElement>(null);
  useToastKeepClear(row);
  return (
    <Stack ref={row} direction="row" spacing={1} flexWrap="wrap" useFlexGap>
      {children}
    </Stack>
  );
}

/** `/Patient/:patientId/encounter`: the patient's required actions, then the visit note. */
export function VisitNotePage() {
  const { patientId } = useParams();
  const client = useFhirClient();
  const queryClient = useQueryClient();
  const toast = useToast();
  const session = useSession();
  const me = session.profile ? `${session.profile.resourceType}/${session.profile.id}` : undefined;
  const patient = usePatient(patientId ? `Patient/${patientId}` : undefined);
  const questionnaire = useVisitNoteQuestionnaire();
  const openTasks = useOpenTasks(patientId);
  const draft = useVisitNoteDraft(patientId, questionnaire.data, me);
  const [submitted, setSubmitted] = useState<{ responseId?: string; taskId?: string } | undefined>();
  const confirmation = useReturnToTop<HTMLHeadingElement>();

  if (!patientId) return <Alert severity="error">Patient ID not found</Alert>;

  const submit = async (response: Parameters<typeof visitNoteTransaction>[0]) => {
    const answer = await client.executeBatch(
      visitNoteTransaction(response, { reference: `Patient/${patientId}` }, me ? { reference: me } : undefined),
    );
    const ids = createdIds(answer);
    setSubmitted(ids);
    // The page was scrolled to the form's Submit button, which is gone: the confirmation is at the top.
    confirmation.returnToTop();
    toast.success('Visit note submitted');
    queryClient.setQueryData(['hearth-visit-note-draft', patientId, questionnaire.data?.id, me], null);
    void queryClient.invalidateQueries({ queryKey: ['hearth-open-tasks', patientId] });
  };

  let body;
  if (questionnaire.isPending || patient.isPending || (questionnaire.data && draft.isPending)) {
    body = <CircularProgress aria-label="Loading..." />;
  } else if (questionnaire.error || patient.error || draft.error) {
    body = <Alert severity="error">{(questionnaire.error ?? patient.error ?? draft.error)?.message}</Alert>;
  } else if (!questionnaire.data) {
    body = (
      <Alert severity="warning">
        This project has no “{SOAP_NOTE_MENOPAUSE_TITLE}” questionnaire. New projects get it when they are created; an
        administrator can restore it by creating the questionnaire again.
      </Alert>
    );
  } else if (submitted) {
    body = (
      <Paper variant="outlined" sx={{ p: 2 }} role="status">
        <Typography variant="h6" component="h2" ref={confirmation.ref} tabIndex={-1}>
          Visit note submitted
        </Typography>
        <Typography sx={{ mb: 1 }}>A follow-up task to review the note was created.</Typography>
        <ToastFreeRow>
          {submitted.taskId && (
            <Button
              variant="contained"
              component={RouterLink}
              to={`/Patient/${patientId}/task/${submitted.taskId}/details`}
            >
              Open follow-up task
            </Button>
          )}
          {submitted.responseId && (
            <Button component={RouterLink} to={`/Patient/${patientId}/QuestionnaireResponse/${submitted.responseId}`}>
              View the note
            </Button>
          )}
          <Button onClick={() => setSubmitted(undefined)}>Start another note</Button>
        </ToastFreeRow>
      </Paper>
    );
  } else if (patient.data) {
    body = (
      <VisitNoteForm
        key={draft.data?.id ?? 'new'}
        questionnaire={questionnaire.data}
        patient={patient.data}
        draft={draft.data ?? undefined}
        profile={session.profile}
        submit={submit}
      />
    );
  }

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Visit note{patient.data ? ` — ${getDisplayString(patient.data)}` : ''}
      </Typography>
      <RequiredActions patientId={patientId} tasks={openTasks.data} error={openTasks.error} />
      {body}
    </Box>
  );
}
