import { Typography } from '@mui/material';
import { formatDateTime } from '../../data-provider/formatting';
import type { DraftStatus } from './useDraftAutosave';

/** Where the draft stands, in words (a failed save says the answers are kept in the browser meanwhile). */
export function DraftStatusLine({ status }: { status: DraftStatus }) {
  let text = '';
  let color: 'text.secondary' | 'error' = 'text.secondary';
  switch (status.state) {
    case 'pending':
      text = 'Unsaved changes…';
      break;
    case 'saving':
      text = 'Saving draft…';
      break;
    case 'saved':
      text = `Draft saved ${formatDateTime(status.at)}`;
      break;
    case 'error':
      text = `Draft not saved: ${status.message}. Your answers are kept in this browser, also across a reload; the next change tries again.`;
      color = 'error';
      break;
    case 'conflict':
      // The notice above says what happened and what to choose.
      text =
        status.conflict.kind === 'submitted'
          ? 'Not saved: the note was submitted elsewhere.'
          : 'Not saved: waiting for your choice above.';
      break;
    default:
      text = 'A draft is saved as you type.';
  }
  return (
    <Typography variant="body2" color={color} role="status" aria-live="polite" data-testid="draft-status">
      {text}
    </Typography>
  );
}
