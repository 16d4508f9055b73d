import { useState } from 'react';
import { Box, Button, LinearProgress, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import type { Attachment } from '@medplum/fhirtypes';
import { useFhirClient } from '../resources/useFhirClient';
import { AttachmentLink } from './AttachmentLink';
import { FieldGroup } from './FieldGroup';
import { inputId, withField, type InputProps } from './inputProps';
import { TextPart } from './TextPart';

/** Attachment: upload a file (stored as a Binary, with progress) or edit its title. */
export function AttachmentInput(props: InputProps<Attachment>) {
  const client = useFhirClient();
  const [progress, setProgress] = useState<number>();
  const [error, setError] = useState<string>();
  const id = inputId(props.path);

  async function upload(file: File): Promise<void> {
    setError(undefined);
    setProgress(0);
    try {
      const attachment = await client.createAttachment({
        data: file,
        contentType: file.type || 'application/octet-stream',
        filename: file.name,
        onProgress: (p) => setProgress(p.total ? Math.round((100 * p.loaded) / p.total) : undefined),
      });
      props.onChange({ ...attachment, title: props.value?.title ?? file.name });
    } catch (cause) {
      setError(`Upload error: ${(cause as Error).message}`);
    } finally {
      setProgress(undefined);
    }
  }

  return (
    <FieldGroup label={props.label} required={props.required} error={props.error ?? error}>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        {props.value?.url && (
          <AttachmentLink
            attachment={props.value}
            name={props.value.title ?? props.value.contentType ?? 'Attachment'}
          />
        )}
        {props.value?.contentType && (
          <Typography variant="caption" color="text.secondary">
            {props.value.contentType}
            {props.value.size ? ` · ${props.value.size} bytes` : ''}
          </Typography>
        )}
        <Button
          component="label"
          htmlFor={id}
          variant="outlined"
          size="small"
          startIcon={<UploadIcon />}
          disabled={props.disabled}
        >
          Upload...
          <input
            id={id}
            type="file"
            hidden
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void upload(file);
              event.target.value = '';
            }}
          />
        </Button>
        {progress !== undefined && (
          <LinearProgress variant="determinate" value={progress} aria-label="Upload progress" />
        )}
      </Box>
      <TextPart
        label="Title"
        path={`${props.path}.title`}
        value={props.value?.title}
        disabled={props.disabled}
        onChange={(v) => props.onChange(withField(props.value, 'title', v))}
      />
    </FieldGroup>
  );
}
