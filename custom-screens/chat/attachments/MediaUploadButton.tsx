import { useRef } from 'react';
import { Button } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { Media, Reference } from '@medplum/fhirtypes';
import { UploadNotice } from './UploadNotice';
import { useMediaUpload } from './useMediaUpload';

/** "Upload file" for a chart: the file becomes a Media of the patient, with the upload notice. */
export function MediaUploadButton({
  subject,
  operator,
  onUploaded,
}: {
  subject: Reference;
  operator?: Reference;
  onUploaded?: (media: Media) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const { state, upload, dismiss } = useMediaUpload();
  return (
    <>
      <input
        ref={input}
        type="file"
        hidden
        data-testid="media-upload-input"
        onChange={async (event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          const result = await upload({ file, subject, operator });
          if (result) onUploaded?.(result.media);
        }}
      />
      <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => input.current?.click()}>
        Upload file
      </Button>
      <UploadNotice state={state} onClose={dismiss} />
    </>
  );
}
