import { Checkbox, FormControlLabel, FormHelperText, TextField } from '@mui/material';
import { RequiredBooleanInput } from './RequiredBooleanInput';
import { DateTimeInput } from './DateTimeInput';
import { isTemporalType } from './dateTimeValue';
import { inputId, type InputProps } from './inputProps';

const INTEGER_TYPES = new Set(['integer', 'positiveInt', 'unsignedInt', 'integer64']);

/** `<input type=…>` per primitive: number steps, multi-line for markdown/base64/xhtml (dates: DateTimeInput). */
export function primitiveInputType(type: string): { inputType: string; multiline?: boolean; step?: string } {
  if (INTEGER_TYPES.has(type)) return { inputType: 'number', step: '1' };
  if (type === 'decimal') return { inputType: 'number', step: 'any' };
  if (type === 'markdown' || type === 'base64Binary' || type === 'xhtml') return { inputType: 'text', multiline: true };
  return { inputType: 'text' };
}

/** Number input text → number; NaN (and '') becomes undefined (app-spec §5). */
export function parseNumberInput(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isNaN(value) ? undefined : value;
}

export function PrimitiveInput(props: InputProps<string | number | boolean> & { type: string }) {
  const { type } = props;
  // A required boolean is a choice the user makes: an unticked checkbox would look like "false"
  // while the element is missing (the server then refuses the save with "Missing required property").
  if (type === 'boolean' && props.required) return <RequiredBooleanInput {...(props as InputProps<boolean>)} />;
  if (type === 'boolean') {
    return (
      <div>
        <FormControlLabel
          label={props.label}
          control={
            <Checkbox
              id={inputId(props.path)}
              checked={props.value === true}
              disabled={props.disabled}
              onChange={(event) =>
                props.onChange(event.target.checked ? true : props.value === undefined ? undefined : false)
              }
            />
          }
        />
        {props.error && <FormHelperText error>{props.error}</FormHelperText>}
      </div>
    );
  }
  if (isTemporalType(type)) return <DateTimeInput {...(props as InputProps<string>)} type={type} />;
  const { inputType, multiline, step } = primitiveInputType(type);
  const isNumber = inputType === 'number';
  const shown = props.value ?? '';
  return (
    <TextField
      id={inputId(props.path)}
      label={props.label}
      size="small"
      fullWidth
      required={props.required}
      disabled={props.disabled}
      type={inputType}
      multiline={multiline}
      minRows={multiline ? 2 : undefined}
      value={shown}
      error={!!props.error}
      helperText={props.error}
      slotProps={{
        htmlInput: { step, 'data-path': props.path },
        inputLabel: inputType !== 'text' ? { shrink: true } : undefined,
      }}
      onChange={(event) => {
        const text = event.target.value;
        if (isNumber) props.onChange(parseNumberInput(text));
        else props.onChange(text === '' ? undefined : text);
      }}
    />
  );
}
