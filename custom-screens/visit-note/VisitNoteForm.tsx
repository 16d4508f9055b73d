import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Box } from '@mui/material';
import type { Patient, Questionnaire, QuestionnaireResponse, Reference } from '@medplum/fhirtypes';
import { QuestionnaireForm } from '../../src/questionnaire';
import { fieldId } from '../../src/questionnaire/QuestionnaireItems';
import type { ProfileResource } from '../../data-provider/client';
import { openingAnswers, visitNoteBackupKey } from './answerBackupRules';
import { DraftConflictNotice } from './DraftConflictNotice';
import { answersAsText, isVersionConflict, knownDraftAtOpening, SUBMIT_CONFLICT_MESSAGE } from './draftConflict';
import { DraftStatusLine } from './DraftStatusLine';
import { RecoveredAnswersNotice } from './RecoveredAnswersNotice';
import { useAnswerBackup } from './useAnswerBackup';
import { useDraftAutosave, type DraftStatus } from './useDraftAutosave';
import { localDay } from '../../data-provider/rules';
import { VISIT_DATE_LINK_ID, visitDateProblem } from './visitDateRules';

interface VisitNoteFormProps {
  questionnaire: Questionnaire;
  patient: Patient;
  draft: QuestionnaireResponse | undefined;
  profile: ProfileResource | undefined;
  /** Writes the completed note; resolves when stored. The form keeps its answers if it throws. */
  submit: (response: QuestionnaireResponse) => Promise<void>;
}

/** What the notice says happens to answers restored from this browser, as their save goes. */
function recoveredAnswersFate(stored: boolean, status: DraftStatus): string {
  if (stored) return 'They are now saved as the draft.';
  if (status.state === 'error') return 'The server cannot store them yet; they stay kept in this browser meanwhile.';
  return 'They are being saved as the draft now.';
}

/**
 * The visit-note questionnaire for one patient, saved as a draft while it is filled, with a copy
 * in the browser of what the server does not have yet. It opens with the server's draft, or with
 * the browser's copy when that has answers the server lacks (see `openingAnswers`), which is then
 * saved at once.
 */
export function VisitNoteForm(props: VisitNoteFormProps) {
  const author = props.profile ? { reference: `${props.profile.resourceType}/${props.profile.id}` } : undefined;
  const backup = useAnswerBackup(
    author && props.patient.id
      ? visitNoteBackupKey(author.reference, props.patient.id, props.questionnaire)
      : undefined,
  );
  // Decided once, when the form opens: later the page holds the newest answers.
  const [opening] = useState(() => openingAnswers(props.draft, backup.found));
  const [known] = useState(() => knownDraftAtOpening(props.draft, opening.source === 'browser', backup.found?.basis));
  const autosave = useDraftAutosave(known, backup, opening.source === 'browser' ? opening.response : undefined);
  // The first save after opening with restored answers is theirs (the status starts as pending).
  const [recoveryStored, setRecoveryStored] = useState(false);
  if (opening.source === 'browser' && !recoveryStored && autosave.status.state === 'saved') setRecoveryStored(true);
  // What the form shows: the opening answers, until "Load their version" replaces them (a new key remounts it).
  const [shown, setShown] = useState(() => ({ key: 0, response: opening.response }));
  const conflict = autosave.status.state === 'conflict' ? autosave.status.conflict : undefined;
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  // Judged as the date changes, so the message shows before the submit that it would stop.
  const [dateProblem, setDateProblem] = useState(() =>
    opening.response ? visitDateProblem(opening.response, localDay()) : undefined,
  );
  const schedule = autosave.schedule;
  const onChange = useCallback(
    (response: QuestionnaireResponse) => {
      schedule(response);
      setDateProblem(visitDateProblem(response, localDay()));
    },
    [schedule],
  );
  const subject: Reference = { reference: `Patient/${props.patient.id}` };
  const launch = useMemo(() => ({ patient: props.patient, user: props.profile }), [props.patient, props.profile]);

  useEffect(() => {
    // The server's draft is newer than (or equal to) this browser's copy: the copy is stale.
    if (opening.source === 'server' && opening.dropBackup) backup.forget();
  }, [opening, backup]);

  return (
    <Box>
      {opening.source === 'browser' && (
        <RecoveredAnswersNotice>
          Answers typed in this browser had not reached the server when the page was left, and are restored below.{' '}
          {recoveredAnswersFate(recoveryStored, autosave.status)}
        </RecoveredAnswersNotice>
      )}
      {conflict && (
        // Pinned to the top of the scrolling page: the refused save usually happens while the clinician is
        // typing far down the form, and nothing more is saved until they choose.
        <Box
          data-testid="draft-conflict-dock"
          sx={{ position: 'sticky', top: 0, zIndex: (theme) => theme.zIndex.appBar - 1, bgcolor: 'background.default' }}
        >
          <DraftConflictNotice
            conflict={conflict}
            onLoadTheirs={async () => {
              const latest = await autosave.loadTheirs();
              if (latest) {
                setShown((current) => ({ key: current.key + 1, response: latest }));
                setDateProblem(visitDateProblem(latest, localDay()));
                setProblem(undefined);
              }
            }}
            onKeepMine={async () => {
              setProblem(undefined);
              await autosave.keepMine();
            }}
            onCopy={async () => {
              try {
                await navigator.clipboard.writeText(answersAsText(autosave.answers.current));
                return true;
              } catch {
                return false;
              }
            }}
            onStartNewNote={async () => {
              setProblem(undefined);
              await autosave.startNewNote();
            }}
          />
        </Box>
      )}
      <DraftStatusLine status={autosave.status} />
      {/* The generic form cannot show a caller's message under its own field; this sits just above it. */}
      {dateProblem && (
        <Alert severity="error" role="alert" sx={{ my: 1 }}>
          {dateProblem}
        </Alert>
      )}
      {problem && (
        <Alert severity="error" sx={{ my: 1 }}>
          {problem}
        </Alert>
      )}
      <QuestionnaireForm
        questionnaire={props.questionnaire}
        key={shown.key}
        response={shown.response}
        launchContext={launch}
        subject={subject}
        author={author as QuestionnaireResponse['author']}
        // A note submitted elsewhere is final: this tab's text stays visible but cannot be changed or sent.
        disabled={saving || conflict?.kind === 'submitted'}
        onChange={onChange}
        onSubmit={async (response) => {
          const future = visitDateProblem(response, localDay());
          if (future) {
            setDateProblem(future);
            document.getElementById(fieldId(VISIT_DATE_LINK_ID))?.focus();
            return;
          }
          setSaving(true);
          setProblem(undefined);
          try {
            const stored = await autosave.flush();
            if (autosave.isHalted()) {
              // A save was refused for the version: the notice above offers the choice; nothing is sent.
              setProblem(SUBMIT_CONFLICT_MESSAGE);
              return;
            }
            await props.submit(
              stored?.id
                ? { ...response, id: stored.id, meta: stored.meta }
                : { ...response, id: undefined, meta: undefined },
            );
            autosave.reset();
          } catch (error) {
            if (isVersionConflict(error)) {
              setProblem(SUBMIT_CONFLICT_MESSAGE);
              await autosave.conflictOnSubmit();
              return;
            }
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
