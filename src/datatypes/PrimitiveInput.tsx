import { Checkbox, FormControlLabel, FormHelperText, TextField } from '@mui/material';
import { inputId, type InputProps } from './inputProps';

const INTEGER_TYPES = new Set(['integer', 'positiveInt', 'unsignedInt', 'integer64']);

/** `<input type=…>` per primitive: number steps, date pickers, multi-line for markdown/base64/xhtml. */
export function primitiveInputType(type: string): { inputType: string; multiline?: boolean; step?: string } {
  if (INTEGER_TYPES.has(type)) return { inputType: 'number', step: '1' };
  if (type === 'decimal') return { inputType: 'number', step: 'any' };
  if (type === 'date') return { inputType: 'date' };
  if (type === 'dateTime' || type === 'instant') return { inputType: 'datetime-local', step: '1' };
  if (type === 'time') return { inputType: 'time', step: '1' };
  if (type === 'markdown' || type === 'base64Binary' || type === 'xhtml') return { inputType: 'text', multiline: true };
  return { inputType: 'text' };
}

/** Number input text → number; NaN (and '') becomes undefined (app-spec §5). */
export function parseNumberInput(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isNaN(value) ? undefined : value;
}

/** ISO dateTime → the `YYYY-MM-DDTHH:mm:ss` a datetime-local input shows (in local time). */
export function toLocalInput(value: string | undefined): string {
  if (!value) return '';
  if (value.length <= 10) return value.length === 10 ? `${value}T00:00:00` : '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A datetime-local value (local time) → an ISO instant in UTC. */
export function fromLocalInput(text: string): string | undefined {
  if (!text) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().replace('.000Z', 'Z');
}

export function PrimitiveInput(props: InputProps<string | number | boolean> & { type: string }) {
  const { type } = props;
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
  const { inputType, multiline, step } = primitiveInputType(type);
  const isNumber = inputType === 'number';
  const isDateTime = inputType === 'datetime-local';
  const shown = isDateTime ? toLocalInput(props.value as string) : (props.value ?? '');
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
        else if (isDateTime) props.onChange(fromLocalInput(text));
        else props.onChange(text === '' ? undefined : text);
      }}
    />
  );
}
