import { Box, Paper, Stack, Typography } from '@mui/material';
import type { Communication } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import { AttachmentView } from './attachments';
import { messageText, senderName, type MessageSide, type SenderNameContext } from './chatMessages';

interface MessageBubbleProps {
  message: Communication;
  /** The reader's side on the right with its "Delivered" time, the other side on the left (chatMessages.messageSide). */
  side: MessageSide;
  /** Name who wrote it: always on the other side, and on the reader's side when a colleague wrote it. */
  showSender: boolean;
  /** How a sender without a display of their own is named. */
  naming?: SenderNameContext;
}

/** One message as a bubble on its side of the conversation. */
export function MessageBubble({ message, side, showSender, naming }: MessageBubbleProps) {
  const ours = side === 'ours';
  const text = messageText(message);
  const attachments = (message.payload ?? []).flatMap((part) =>
    part.contentAttachment ? [part.contentAttachment] : [],
  );
  return (
    <Stack
      alignItems={ours ? 'flex-end' : 'flex-start'}
      sx={{ mb: 1, minWidth: 0 }}
      data-testid="chat-message"
      data-own={ours}
      data-id={message.id}
    >
      {showSender && (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ px: 1, maxWidth: '100%', overflowWrap: 'anywhere' }}
          data-testid="chat-sender"
        >
          {senderName(message, naming)}
        </Typography>
      )}
      <Paper
        elevation={0}
        sx={{
          px: 1.5,
          py: 1,
          maxWidth: '75%',
          minWidth: 0,
          borderRadius: 2,
          bgcolor: ours ? 'primary.main' : 'action.selected',
          color: ours ? 'primary.contrastText' : 'text.primary',
          whiteSpace: 'pre-wrap',
          // A pasted URL has no space to wrap at; "anywhere" also keeps it out of the bubble's min-content width.
          overflowWrap: 'anywhere',
        }}
      >
        {text && (
          <Typography variant="body1" data-testid="chat-message-text">
            {text}
          </Typography>
        )}
        {attachments.map((attachment, index) => (
          <Box key={index} sx={{ mt: text ? 1 : 0 }}>
            <AttachmentView attachment={attachment} maxWidth={320} />
          </Box>
        ))}
      </Paper>
      {ours && (
        <Typography variant="caption" color="text.secondary" sx={{ px: 1 }} data-testid="chat-delivery">
          Delivered {formatDateTime(message.sent, undefined, { timeStyle: 'short' })}
          {/* The other side's read mark sets `received`: the writer learns whether the message was read. */}
          {message.received && ` · Read ${formatDateTime(message.received, undefined, { timeStyle: 'short' })}`}
        </Typography>
      )}
    </Stack>
  );
}
