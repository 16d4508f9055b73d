import { useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { inputId, type InputProps } from './inputProps';
import { useValueSetOptions } from './useValueSetOptions';

/** A `code` with a ValueSet binding: the expansion's codes, with free text allowed unless required. */
export function CodeInput(props: InputProps<string> & { valueSet?: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const options = useValueSetOptions(props.valueSet, text === props.value ? '' : text, open);
  const codes = (options.data ?? []).map((coding) => coding.code as string);
  const labels = new Map((options.data ?? []).map((coding) => [coding.code as string, coding.display]));
  return (
    <Autocomplete<string, false, false, true>
      id={inputId(props.path)}
      freeSolo
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={codes}
      loading={options.isFetching}
      noOptionsText="Nothing found"
      disabled={props.disabled}
      value={props.value ?? null}
      filterOptions={(x) => x}
      renderOption={(optionProps, code) => (
        <li {...optionProps} key={code}>
          {labels.get(code) ? `${labels.get(code)} (${code})` : code}
        </li>
      )}
      onInputChange={(_event, value, reason) => {
        setText(value);
        if (reason === 'input') props.onChange(value.trim() || undefined);
      }}
      onChange={(_event, value) => props.onChange(value?.trim() || undefined)}
      ListboxProps={{ style: { maxHeight: 320 } }}
      renderInput={(params) => (
        <TextField
          {...params}
          size="small"
          label={props.label}
          required={props.required}
          error={!!props.error}
          helperText={props.error}
          slotProps={{ htmlInput: { ...params.inputProps, 'data-path': props.path } }}
        />
      )}
    />
  );
}
