import { Alert, AlertTitle } from '@mui/material';
import type { MessagingClosed } from './deceasedMessaging';

/**
 * The notice at the top of a closed conversation, seen before any message: staff get it in the
 * warning colour (a death changes what they may send), a portal reader a calmer blue.
 */
export function MessagingClosedNotice({ closed, tone }: { closed: MessagingClosed; tone: 'warning' | 'info' }) {
  return (
    <Alert
      severity={tone}
      // The edge in the full colour keeps the notice loud in the dark scheme, where the fill is dim.
      sx={{ borderRadius: 0, borderLeft: 4, borderColor: `${tone}.main` }}
      data-testid="chat-closed-notice"
    >
      <AlertTitle sx={{ fontWeight: 700 }}>{closed.title}</AlertTitle>
      {closed.detail}
    </Alert>
  );
}
