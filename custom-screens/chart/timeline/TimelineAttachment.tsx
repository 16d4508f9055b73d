import { useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import type { Attachment } from '@medplum/fhirtypes';
import { AttachmentView } from '../../chat/attachments/AttachmentView';
import { inlineTextOf } from '../../../data-provider/formatting';

/**
 * An attachment on the timeline: its name at once, its content on request. Loading every file
 * when the chart opens would cost a request each before the clinician asked for any.
 */
export function TimelineAttachment({ attachment }: { attachment: Attachment }) {
  const [open, setOpen] = useState(false);
  const name = attachment.title ?? attachment.contentType ?? 'Attachment';
  const inline = inlineTextOf(attachment);
  if (inline !== undefined) {
    return (
      <Box component="pre" sx={{ whiteSpace: 'pre-wrap', m: 0, fontFamily: 'inherit' }}>
        {inline}
      </Box>
    );
  }
  if (!attachment.url) return <Typography variant="body2">{name}</Typography>;
  return open ? (
    <AttachmentView attachment={attachment} />
  ) : (
    <Box>
      {/* A long file name wraps under its icon, starting at the left like the text around it, instead of a centred block. */}
      <Button
        size="small"
        startIcon={<AttachFileIcon />}
        onClick={() => setOpen(true)}
        sx={{ textTransform: 'none', textAlign: 'left', justifyContent: 'flex-start', maxWidth: '100%' }}
      >
        View {name}
      </Button>
    </Box>
  );
}
