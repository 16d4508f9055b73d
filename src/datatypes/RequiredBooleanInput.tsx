import { FormControl, FormControlLabel, FormHelperText, FormLabel, Radio, RadioGroup } from '@mui/material';
import { inputId, type InputProps } from './inputProps';

/**
 * A required boolean (StructureDefinition.abstract, Group.actual): Yes and No side by side, neither
 * chosen until the user picks one, with "Choose Yes or No" under it while unset — the form never
 * sends a value the user did not see.
 */
export function RequiredBooleanInput(props: InputProps<boolean>) {
  const id = inputId(props.path);
  const unset = props.value !== true && props.value !== false;
  const message = props.error ?? (unset ? 'Choose Yes or No' : undefined);
  return (
    <FormControl
      component="fieldset"
      required
      error={!!props.error}
      disabled={props.disabled}
      sx={{ display: 'block' }}
    >
      <FormLabel component="legend" id={`${id}-label`} sx={{ typography: 'body2' }}>
        {props.label}
      </FormLabel>
      <RadioGroup
        row
        aria-labelledby={`${id}-label`}
        aria-describedby={message ? `${id}-helper` : undefined}
        name={id}
        value={unset ? '' : String(props.value)}
        onChange={(event) => props.onChange(event.target.value === 'true')}
      >
        <FormControlLabel value="true" control={<Radio id={`${id}-true`} />} label="Yes (true)" />
        <FormControlLabel value="false" control={<Radio id={`${id}-false`} />} label="No (false)" />
      </RadioGroup>
      {message && <FormHelperText id={`${id}-helper`}>{message}</FormHelperText>}
    </FormControl>
  );
}
