import { MenuItem, TextField } from '@mui/material';
import { inputId } from './inputProps';

/** A small select of fixed codes (HumanName use, ContactPoint system, …) with an empty choice. */
export function SelectInput(props: {
  label: string;
  path: string;
  options: readonly string[];
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  disabled?: boolean;
}) {
  return (
    <TextField
      select
      id={inputId(props.path)}
      label={props.label}
      size="small"
      value={props.value ?? ''}
      disabled={props.disabled}
      onChange={(event) => props.onChange(event.target.value || undefined)}
    >
      <MenuItem value="">
        <em>(none)</em>
      </MenuItem>
      {props.options.map((option) => (
        <MenuItem key={option} value={option}>
          {option}
        </MenuItem>
      ))}
    </TextField>
  );
}
