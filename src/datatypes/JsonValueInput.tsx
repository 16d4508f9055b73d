import { useState } from 'react';
import { TextField } from '@mui/material';
import { inputId, type InputProps } from './inputProps';

/** Contained resources and narratives: edited as JSON text, applied when it parses. */
export function JsonValueInput(props: InputProps<unknown>) {
  const [text, setText] = useState(props.value === undefined ? '' : JSON.stringify(props.value, null, 2));
  const [parseError, setParseError] = useState<string>();
  return (
    <TextField
      id={inputId(props.path)}
      label={`${props.label} (JSON)`}
      size="small"
      fullWidth
      multiline
      minRows={2}
      value={text}
      disabled={props.disabled}
      error={!!(parseError ?? props.error)}
      helperText={parseError ?? props.error}
      slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
      onChange={(event) => {
        setText(event.target.value);
        if (!event.target.value.trim()) {
          setParseError(undefined);
          props.onChange(undefined);
          return;
        }
        try {
          props.onChange(JSON.parse(event.target.value));
          setParseError(undefined);
        } catch {
          setParseError('Not valid JSON');
        }
      }}
    />
  );
}
