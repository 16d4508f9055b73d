import { useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { inputId, type InputProps } from './inputProps';
import {
  codeChoices,
  keepEnterInField,
  useValueList,
  useValueSetOptions,
  VALUE_LIST_UNAVAILABLE,
} from './useValueSetOptions';

/**
 * A `code` with a ValueSet binding: the expansion's codes, with free text allowed unless required.
 * When the server cannot expand the ValueSet, it is a free-text code with a quiet hint saying so.
 */
export function CodeInput(props: InputProps<string> & { valueSet?: string }) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(false);
  // The typed text filters the expansion; choosing an option clears the filter.
  const [filter, setFilter] = useState('');
  const list = useValueList(props.valueSet, active);
  const options = useValueSetOptions(props.valueSet, filter, open && !list.unavailable);
  const { codes, optionText } = codeChoices(options.data);
  return (
    <Autocomplete<string, false, false, true>
      id={inputId(props.path)}
      freeSolo
      open={open && !list.unavailable}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      onFocus={() => setActive(true)}
      onKeyDown={keepEnterInField}
      options={codes}
      loading={options.isFetching}
      noOptionsText="Nothing found"
      disabled={props.disabled}
      value={props.value ?? null}
      filterOptions={(x) => x}
      renderOption={(optionProps, code) => (
        <li {...optionProps} key={code}>
          {optionText(code)}
        </li>
      )}
      onInputChange={(_event, value, reason) => {
        if (reason !== 'input') {
          setFilter('');
          return;
        }
        setFilter(value);
        props.onChange(value.trim() || undefined);
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
          helperText={
            props.error ??
            (list.unavailable
              ? VALUE_LIST_UNAVAILABLE
              : open && options.isSuccess && !options.isFetching && (options.data ?? []).length === 0
                ? 'Nothing found'
                : undefined)
          }
          slotProps={{ htmlInput: { ...params.inputProps, 'data-path': props.path } }}
        />
      )}
    />
  );
}
