import { useState } from 'react';
import { Box, TextField } from '@mui/material';
import {
  completeTemporal,
  describeTemporal,
  FHIR_TEMPORAL_REGEX,
  fromPicker,
  pickerValue,
  temporalError,
  TEMPORAL_FORMATS,
  zoneOf,
  type TemporalType,
} from './dateTimeValue';
import { inputId, type InputProps } from './inputProps';

const PICKER_TYPE: Record<TemporalType, string> = {
  date: 'date',
  dateTime: 'datetime-local',
  instant: 'datetime-local',
  time: 'time',
};

const PLACEHOLDER: Record<TemporalType, string> = {
  date: 'YYYY-MM-DD',
  dateTime: 'YYYY-MM-DDThh:mm:ss+hh:mm',
  instant: 'YYYY-MM-DDThh:mm:ss+hh:mm',
  time: 'hh:mm:ss',
};

/**
 * date, dateTime, instant and time: a text field holding the value exactly as stored (partial dates,
 * fractions of a second and the UTC offset included) and a native picker beside it for the
 * wall-clock part. Nothing is handed back until the user edits, so an untouched value is saved as
 * it was; text that is not of the type is kept and flagged under the field, never dropped.
 */
export function DateTimeInput(props: InputProps<string> & { type: TemporalType }) {
  const { type } = props;
  const stored = props.value ?? '';
  const [text, setText] = useState(stored);
  const [blurred, setBlurred] = useState(false);
  const [edited, setEdited] = useState(false);
  // The offset an edit keeps: the one of the value as loaded or last saved with a time.
  const [keepZone, setKeepZone] = useState(() => zoneOf(props.value));
  // A value changed from outside (the picker, another input, a reset) replaces the text.
  if (completeTemporal(type, text, keepZone) !== stored && text !== stored) setText(stored);
  const localError = temporalError(type, stored);
  // A stored value that is already invalid is flagged at once; typing is flagged after leaving the field.
  const showLocal = !!localError && (blurred || !edited);
  const error = showLocal ? localError : props.error;
  const note = describeTemporal(type, props.value);

  const emit = (next: string | undefined) => {
    const zone = zoneOf(next);
    if (zone) setKeepZone(zone);
    props.onChange(next);
  };
  const pickerLabel = `${props.label} picker`;
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <TextField
        id={inputId(props.path)}
        label={props.label}
        size="small"
        required={props.required}
        disabled={props.disabled}
        value={text}
        placeholder={PLACEHOLDER[type]}
        error={!!error}
        helperText={error ?? note}
        sx={{ flex: '1 1 240px', minWidth: 0 }}
        slotProps={{
          htmlInput: {
            'data-path': props.path,
            pattern: FHIR_TEMPORAL_REGEX[type],
            title: TEMPORAL_FORMATS[type],
            spellCheck: false,
            autoComplete: 'off',
          },
          inputLabel: { shrink: true },
        }}
        onChange={(event) => {
          const typed = event.target.value;
          setText(typed);
          setEdited(true);
          emit(typed.trim() === '' ? undefined : completeTemporal(type, typed, keepZone));
        }}
        onBlur={() => {
          setBlurred(true);
          // Show the completed value (seconds, offset) once the user leaves the field.
          if (text.trim() !== '' && !temporalError(type, stored)) setText(stored);
        }}
      />
      <TextField
        label={pickerLabel}
        size="small"
        type={PICKER_TYPE[type]}
        disabled={props.disabled}
        value={pickerValue(type, props.value)}
        // The native picker's icon and popup follow the app's light or dark scheme.
        sx={(theme) => ({ flex: '0 1 230px', '& input': { colorScheme: theme.palette.mode } })}
        slotProps={{
          htmlInput: { step: 1, 'aria-label': pickerLabel },
          inputLabel: { shrink: true },
        }}
        onChange={(event) => {
          const next = fromPicker(type, event.target.value, zoneOf(props.value) ?? keepZone);
          setText(next ?? '');
          emit(next);
        }}
      />
    </Box>
  );
}
