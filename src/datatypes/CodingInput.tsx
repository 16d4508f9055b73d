import { useState } from 'react';
import { Autocomplete, Box, TextField } from '@mui/material';
import type { Coding } from '@medplum/fhirtypes';
import { formatCoding } from '../../data-provider/formatting';
import { inputId, withField, type InputProps } from './inputProps';
import { TextPart } from './TextPart';
import { typedCoding } from './typedCoding';
import { keepEnterInField, useValueList, useValueSetOptions, VALUE_LIST_UNAVAILABLE } from './useValueSetOptions';

/**
 * A Coding picked from the bound ValueSet's `$expand` (with filter); free text becomes a code.
 *
 * When the server cannot expand the ValueSet (it does not hold it: DICOM modalities), the field is
 * a free-text code: what was typed is kept on blur, `system|code` gives both, a bare code takes the
 * binding's code system when the ValueSet's definition names exactly one, else the optional System
 * input beside it; a quiet hint says the list is not available. The same free text is kept on blur
 * when no ValueSet is bound, or before the list has answered.
 */
export function CodingInput(props: InputProps<Coding> & { valueSet?: string }) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(false);
  const [text, setText] = useState('');
  // Text the user typed and has not handed back yet (null: the field shows the value's own text).
  const [typed, setTyped] = useState<string | null>(null);
  const list = useValueList(props.valueSet, active);
  const options = useValueSetOptions(props.valueSet, text, open && !list.unavailable);
  const askSystem = list.unavailable && !list.systemPending && !list.system;
  // A bare typed code belongs to the binding's one code system, or to the one entered beside it.
  const system = list.system ?? (askSystem ? props.value?.system : undefined);
  const commit = (entered: string) => {
    setTyped(null);
    props.onChange(typedCoding(entered, system));
  };
  const nothingFound = open && options.isSuccess && !options.isFetching && (options.data ?? []).length === 0;
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <Autocomplete<Coding, false, false, true>
        id={inputId(props.path)}
        sx={{ flex: '1 1 200px', minWidth: 0 }}
        freeSolo
        open={open && !list.unavailable}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
        onFocus={() => setActive(true)}
        onKeyDown={keepEnterInField}
        onBlur={() => {
          if (typed !== null && !list.available) commit(typed);
        }}
        options={list.unavailable ? [] : (options.data ?? [])}
        loading={options.isFetching}
        noOptionsText="Nothing found"
        disabled={props.disabled}
        value={props.value ?? null}
        filterOptions={(x) => x}
        getOptionLabel={(option) => (typeof option === 'string' ? option : formatCoding(option, { includeCode: true }))}
        isOptionEqualToValue={(a, b) => a.code === b.code && a.system === b.system}
        onInputChange={(_event, value, reason) => {
          setText(value);
          setTyped(reason === 'input' ? value : null);
        }}
        onChange={(_event, value) => {
          if (typeof value === 'string') commit(value);
          else {
            setTyped(null);
            props.onChange(value ?? undefined);
          }
        }}
        ListboxProps={{ style: { maxHeight: 320 } }}
        renderInput={(params) => (
          <TextField
            {...params}
            size="small"
            label={props.label}
            required={props.required}
            error={!!props.error}
            helperText={
              props.error ?? (list.unavailable ? VALUE_LIST_UNAVAILABLE : nothingFound ? 'Nothing found' : undefined)
            }
          />
        )}
      />
      {askSystem && (
        <TextPart
          label="System"
          path={`${props.path}.system`}
          value={props.value?.system}
          disabled={props.disabled}
          placeholder="http://…"
          onChange={(next) => props.onChange(withField(props.value, 'system', next))}
        />
      )}
    </Box>
  );
}
