import { useState } from 'react';
import { Alert, AlertTitle, Box, Button, Stack } from '@mui/material';
import { formatDateTime } from '../../data-provider/formatting';
import {
  DRAFT_CONFLICT_TEXT,
  DRAFT_CONFLICT_TITLE,
  submittedAt,
  submittedNoticeTitle,
  submitterReference,
  type DraftConflict,
} from './draftConflict';
import { useReferenceName } from './useVisitNoteData';

interface DraftConflictNoticeProps {
  conflict: DraftConflict;
  /** Replace this tab's answers with the stored draft. */
  onLoadTheirs: () => Promise<void>;
  /** Save this tab's answers on top of the stored draft. */
  onKeepMine: () => Promise<void>;
  /** Copy this tab's unsent answers (as text) to the clipboard; resolves false when it could not. */
  onCopy: () => Promise<boolean>;
  /** Save this tab's answers as a new draft note. */
  onStartNewNote: () => Promise<void>;
}

/**
 * Above the visit note when a draft save was refused: someone saved another version meanwhile
 * (choose theirs or mine), or the note was submitted elsewhere (final; this tab's text can be
 * copied or made a new note). An alert, so screen readers announce it.
 */
export function DraftConflictNotice(props: DraftConflictNoticeProps) {
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState<boolean | undefined>();
  const submitted = props.conflict.kind === 'submitted' ? props.conflict.latest : undefined;
  const submitter = useReferenceName(submitted ? submitterReference(submitted) : undefined);
  const run = (work: () => Promise<void>) => async () => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  if (submitted) {
    return (
      <Alert severity="info" sx={{ my: 1 }} data-testid="draft-conflict" role="alert">
        <AlertTitle>{submittedNoticeTitle(formatDateTime(submittedAt(submitted)), submitter)}</AlertTitle>A submitted
        note is final, so nothing typed here was saved to it. Your text is shown below, read-only. Copy it, or start a
        new note with it.
        {copied === false && (
          <Box sx={{ mt: 1 }}>The browser did not allow copying; select the text below and copy it yourself.</Box>
        )}
        <Stack direction="row" spacing={1} sx={{ mt: 1 }} flexWrap="wrap" useFlexGap>
          <Button variant="outlined" size="small" disabled={busy} onClick={() => void props.onCopy().then(setCopied)}>
            {copied ? 'Copied' : 'Copy my text'}
          </Button>
          <Button variant="outlined" size="small" disabled={busy} onClick={run(props.onStartNewNote)}>
            Start a new note with my text
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <Alert severity="warning" sx={{ my: 1 }} data-testid="draft-conflict" role="alert">
      <AlertTitle>{DRAFT_CONFLICT_TITLE}</AlertTitle>
      {DRAFT_CONFLICT_TEXT}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }} flexWrap="wrap" useFlexGap>
        <Button variant="outlined" size="small" disabled={busy} onClick={run(props.onLoadTheirs)}>
          Load their version
        </Button>
        <Button variant="contained" size="small" disabled={busy} onClick={run(props.onKeepMine)}>
          Keep mine and save
        </Button>
      </Stack>
    </Alert>
  );
}
