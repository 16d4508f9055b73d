import { useMemo, useState } from 'react';
import { Alert, Box } from '@mui/material';
import type { Patient, Questionnaire, QuestionnaireResponse, Reference } from '@medplum/fhirtypes';
import { QuestionnaireForm } from '../../src/questionnaire';
import type { ProfileResource } from '../../data-provider/client';
import { DraftStatusLine } from './DraftStatusLine';
import { useDraftAutosave } from './useDraftAutosave';

interface VisitNoteFormProps {
  questionnaire: Questionnaire;
  patient: Patient;
  draft: QuestionnaireResponse | undefined;
  profile: ProfileResource | undefined;
  /** Writes the completed note; resolves when stored. The form keeps its answers if it throws. */
  submit: (response: QuestionnaireResponse) => Promise<void>;
}

/** The visit-note questionnaire for one patient, saved as a draft while it is filled. */
export function VisitNoteForm(props: VisitNoteFormProps) {
  const autosave = useDraftAutosave(props.draft);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const subject: Reference = { reference: `Patient/${props.patient.id}` };
  const author = props.profile ? { reference: `${props.profile.resourceType}/${props.profile.id}` } : undefined;
  const launch = useMemo(() => ({ patient: props.patient, user: props.profile }), [props.patient, props.profile]);
  return (
    <Box>
      <DraftStatusLine status={autosave.status} />
      {problem && (
        <Alert severity="error" sx={{ my: 1 }}>
          {problem}
        </Alert>
      )}
      <QuestionnaireForm
        questionnaire={props.questionnaire}
        response={props.draft}
        launchContext={launch}
        subject={subject}
        author={author as QuestionnaireResponse['author']}
        disabled={saving}
        onChange={autosave.schedule}
        onSubmit={async (response) => {
          setSaving(true);
          setProblem(undefined);
          try {
            const stored = await autosave.flush();
            await props.submit(
              stored?.id
                ? { ...response, id: stored.id, meta: stored.meta }
                : { ...response, id: undefined, meta: undefined },
            );
            autosave.reset();
          } catch (error) {
            setProblem(
              `The visit note was not submitted: ${error instanceof Error ? error.message : String(error)}. Your answers are still here.`,
            );
          } finally {
            setSaving(false);
          }
        }}
      />
    </Box>
  );
}
