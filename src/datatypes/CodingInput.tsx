import { useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import type { Coding } from '@medplum/fhirtypes';
import { formatCoding } from '../../data-provider/formatting';
import { inputId, type InputProps } from './inputProps';
import { useValueSetOptions } from './useValueSetOptions';

/** A Coding picked from the bound ValueSet's `$expand` (with filter); free text becomes a code. */
export function CodingInput(props: InputProps<Coding> & { valueSet?: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const options = useValueSetOptions(props.valueSet, text, open);
  return (
    <Autocomplete<Coding, false, false, true>
      id={inputId(props.path)}
      freeSolo
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={options.data ?? []}
      loading={options.isFetching}
      noOptionsText="Nothing found"
      disabled={props.disabled}
      value={props.value ?? null}
      filterOptions={(x) => x}
      getOptionLabel={(option) => (typeof option === 'string' ? option : formatCoding(option, { includeCode: true }))}
      isOptionEqualToValue={(a, b) => a.code === b.code && a.system === b.system}
      onInputChange={(_event, value) => setText(value)}
      onChange={(_event, value) =>
        props.onChange(typeof value === 'string' ? (value ? { code: value } : undefined) : (value ?? undefined))
      }
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
            (open && options.isSuccess && !options.isFetching && (options.data ?? []).length === 0
              ? 'Nothing found'
              : undefined)
          }
        />
      )}
    />
  );
}
