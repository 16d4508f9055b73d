import { useState } from 'react';
import { Autocomplete, Chip, TextField } from '@mui/material';
import { inputId } from './inputProps';
import {
  codeChoices,
  keepEnterInField,
  useValueList,
  useValueSetOptions,
  VALUE_LIST_UNAVAILABLE,
} from './useValueSetOptions';

export interface CodeListInputProps {
  label: string;
  path: string;
  /** The bound ValueSet's canonical URL. */
  valueSet: string;
  /** A required binding allows only the ValueSet's codes; weaker ones also free text. */
  strict: boolean;
  value: string[];
  /** The element's max: no more values can be chosen once reached (app-spec §5). */
  max: number;
  onChange: (values: string[]) => void;
  required?: boolean;
  disabled?: boolean;
  error?: string;
}

/**
 * An array of bound `code`s as one multi-select of the ValueSet's codes, holding at most `max`.
 * When the server cannot expand the ValueSet, codes are typed (Enter adds one), with a quiet hint.
 */
export function CodeListInput(props: CodeListInputProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(false);
  const [filter, setFilter] = useState('');
  const list = useValueList(props.valueSet, active);
  const options = useValueSetOptions(props.valueSet, filter, open && !list.unavailable);
  const { codes, optionText } = codeChoices(options.data);
  const full = props.value.length >= props.max;
  return (
    <Autocomplete<string, true, false, boolean>
      id={inputId(props.path)}
      multiple
      freeSolo={(!props.strict || list.unavailable) && !full}
      open={open && !full && !list.unavailable}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      onFocus={() => setActive(true)}
      onKeyDown={keepEnterInField}
      options={codes}
      loading={options.isFetching}
      noOptionsText="Nothing found"
      disabled={props.disabled}
      value={props.value}
      filterOptions={(found) => found.filter((code) => !props.value.includes(code))}
      getOptionDisabled={() => full}
      renderOption={(optionProps, code) => (
        <li {...optionProps} key={code}>
          {optionText(code)}
        </li>
      )}
      renderValue={(values, getItemProps) =>
        values.map((code, index) => <Chip size="small" label={code} {...getItemProps({ index })} key={code} />)
      }
      onInputChange={(_event, text, reason) => setFilter(reason === 'input' ? text : '')}
      onChange={(_event, values) =>
        props.onChange(
          values
            .map((code) => code.trim())
            .filter(Boolean)
            .slice(0, props.max),
        )
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
            (full && props.max > 1 ? `At most ${props.max}` : list.unavailable ? VALUE_LIST_UNAVAILABLE : undefined)
          }
          slotProps={{ htmlInput: { ...params.inputProps, 'data-path': props.path } }}
        />
      )}
    />
  );
}
