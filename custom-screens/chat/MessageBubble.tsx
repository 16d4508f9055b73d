import { Box, Paper, Stack, Typography } from '@mui/material';
import type { Communication } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import { AttachmentView } from './attachments';
import { messageText, senderName } from './chatMessages';

/** One message: others' on the left with their name, the user's own on the right with its "Delivered" time. */
export function MessageBubble({ message, own }: { message: Communication; own: boolean }) {
  const text = messageText(message);
  const attachments = (message.payload ?? []).flatMap((part) =>
    part.contentAttachment ? [part.contentAttachment] : [],
  );
  return (
    <Stack
      alignItems={own ? 'flex-end' : 'flex-start'}
      sx={{ mb: 1 }}
      data-testid="chat-message"
      data-own={own}
      data-id={message.id}
    >
      {!own && (
        <Typography variant="caption" color="text.secondary" sx={{ px: 1 }}>
          {senderName(message)}
        </Typography>
      )}
      <Paper
        elevation={0}
        sx={{
          px: 1.5,
          py: 1,
          maxWidth: '75%',
          borderRadius: 2,
          bgcolor: own ? 'primary.main' : 'action.selected',
          color: own ? 'primary.contrastText' : 'text.primary',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
        }}
      >
        {text && <Typography variant="body1">{text}</Typography>}
        {attachments.map((attachment, index) => (
          <Box key={index} sx={{ mt: text ? 1 : 0 }}>
            <AttachmentView attachment={attachment} maxWidth={320} />
          </Box>
        ))}
      </Paper>
      {own && (
        <Typography variant="caption" color="text.secondary" sx={{ px: 1 }}>
          Delivered {formatDateTime(message.sent, undefined, { timeStyle: 'short' })}
        </Typography>
      )}
    </Stack>
  );
}
