import { useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import type { Coding } from '@medplum/fhirtypes';
import { formatCoding } from '../../data-provider/formatting';
import { useValueSetOptions } from '../../src/datatypes/useValueSetOptions';

interface ValueSetCodingPickerProps {
  label: string;
  valueSet: string;
  value: Coding | undefined;
  onChange: (value: Coding | undefined) => void;
}

/** One code of a ValueSet, searched through `$expand?filter=` (role, business status). */
export function ValueSetCodingPicker(props: ValueSetCodingPickerProps) {
  const [text, setText] = useState('');
  const options = useValueSetOptions(props.valueSet, text, true);
  return (
    <Autocomplete<Coding>
      options={options.data ?? []}
      loading={options.isFetching}
      noOptionsText={options.error ? options.error.message : 'Nothing found'}
      value={props.value ?? null}
      filterOptions={(x) => x}
      getOptionLabel={(option) => formatCoding(option) || option.code || ''}
      isOptionEqualToValue={(a, b) => a.code === b.code && a.system === b.system}
      onInputChange={(_event, value, reason) => reason === 'input' && setText(value)}
      onChange={(_event, value) => props.onChange(value ?? undefined)}
      ListboxProps={{ style: { maxHeight: 320 } }}
      renderInput={(params) => <TextField {...params} autoFocus label={props.label} required />}
    />
  );
}
