import { Box, Link, Stack, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import type { Attachment } from '@medplum/fhirtypes';
import { UnloadedFileAddress } from '../../../src/datatypes/AttachmentLink';
import { formatFileSize } from '../fileSize';
import { useAttachmentUrl } from './useAttachmentUrl';

function isImage(attachment: Attachment): boolean {
  return (attachment.contentType ?? '').startsWith('image/');
}

function isPdf(attachment: Attachment): boolean {
  return (attachment.contentType ?? '').split(';')[0].trim() === 'application/pdf';
}

/**
 * An attachment: images and PDFs shown inline, anything else as a download link; with its size.
 * Only a file of this server is loaded: an address anywhere else (written by whoever sent the
 * message) is never requested, and is shown as such, a plain link at most.
 */
export function AttachmentView({ attachment, maxWidth = 360 }: { attachment: Attachment; maxWidth?: number }) {
  const shownAs = isImage(attachment) ? 'image' : isPdf(attachment) ? 'pdf' : 'file';
  const { src, error, unloaded } = useAttachmentUrl(attachment.url, shownAs);
  const name = attachment.title ?? 'Attachment';
  const size = formatFileSize(attachment.size);
  return (
    // Never wider than its bubble or card on a phone: maxWidth is an upper bound, not a width.
    <Stack spacing={0.5} sx={{ maxWidth, minWidth: 0, overflowWrap: 'anywhere' }}>
      {src && isImage(attachment) && (
        <Box component="img" src={src} alt={name} sx={{ maxWidth: '100%', maxHeight: 320, borderRadius: 1 }} />
      )}
      {src && isPdf(attachment) && (
        <Box component="iframe" src={src} title={name} sx={{ width: '100%', height: 400, border: 0 }} />
      )}
      <Stack direction="row" spacing={0.5} alignItems="center">
        <AttachFileIcon fontSize="small" aria-hidden />
        {src ? (
          <Link href={src} download={name} color="inherit" underline="always" sx={{ minWidth: 0 }}>
            {name}
          </Link>
        ) : (
          <Typography variant="body2" sx={{ minWidth: 0 }}>
            {name}
          </Typography>
        )}
        {size && (
          <Typography variant="body2" sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
            ({size})
          </Typography>
        )}
      </Stack>
      {unloaded && <UnloadedFileAddress address={unloaded} />}
      {error && (
        // In the bubble's own text colour (red on the clinic's blue bubble could not be read), marked by an icon.
        <Stack direction="row" spacing={0.5} alignItems="center">
          <ErrorOutlineIcon fontSize="small" aria-hidden />
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            The file could not be loaded.
          </Typography>
        </Stack>
      )}
    </Stack>
  );
}
