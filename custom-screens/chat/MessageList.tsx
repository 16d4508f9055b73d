import { useEffect, useMemo, useRef } from 'react';
import { Box, Divider, Typography } from '@mui/material';
import type { Communication, Reference } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import { groupByTimeHeader, isOwnMessage, messageSide, type SenderNameContext } from './chatMessages';
import { MessageBubble } from './MessageBubble';

interface MessageListProps {
  messages: Communication[];
  /** Who reads (and writes): the patient in the portal, a member of staff anywhere else. */
  profile: Reference | undefined;
  /** Whose conversation it is: their messages are one side, the clinic's the other. */
  patient: Reference;
  /** How senders without a display of their own are named (looked up, or the patient's care team). */
  naming?: SenderNameContext;
}

/** The scrolling list of messages under their time headers, kept scrolled to the newest. */
export function MessageList({ messages, profile, patient, naming }: MessageListProps) {
  const groups = useMemo(() => groupByTimeHeader(messages), [messages]);
  const log = useRef<HTMLDivElement>(null);
  // The list scrolls itself, not by scrollIntoView on its end: Chromium takes scrollIntoView's target
  // as where the Tab key starts, so the page's first Tab went past the header into the message box
  // (and it scrolled the whole page down to the chat as well).
  useEffect(() => {
    const list = log.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages]);
  return (
    <Box
      ref={log}
      role="log"
      aria-live="polite"
      aria-label="Messages"
      tabIndex={0}
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto', p: 2 }}
    >
      {messages.length === 0 && (
        <Typography color="text.secondary" sx={{ textAlign: 'center', mt: 4 }}>
          No messages yet.
        </Typography>
      )}
      {groups.map((group) => (
        <Box key={`${group.time}-${group.messages[0].id}`}>
          <Divider sx={{ my: 1 }}>
            <Typography variant="caption" color="text.secondary" data-testid="chat-time-header">
              {formatDateTime(group.time)}
            </Typography>
          </Divider>
          {group.messages.map((message) => (
            <MessageBubble
              key={message.id}
              message={message}
              side={messageSide(message, profile, patient)}
              showSender={!isOwnMessage(message, profile)}
              naming={naming}
            />
          ))}
        </Box>
      ))}
    </Box>
  );
}
