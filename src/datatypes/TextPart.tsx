import { TextField } from '@mui/material';
import { inputId } from './inputProps';

/** One text sub-field of a datatype input. */
export function TextPart(props: {
  label: string;
  path: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  disabled?: boolean;
  type?: string;
  step?: string;
  multiline?: boolean;
  placeholder?: string;
}) {
  return (
    <TextField
      id={inputId(props.path)}
      label={props.label}
      size="small"
      type={props.type}
      multiline={props.multiline}
      placeholder={props.placeholder}
      value={props.value ?? ''}
      disabled={props.disabled}
      slotProps={{
        htmlInput: { step: props.step },
        inputLabel: props.type && props.type !== 'text' ? { shrink: true } : undefined,
      }}
      onChange={(event) => props.onChange(event.target.value === '' ? undefined : event.target.value)}
    />
  );
}
