import type { Timing, TimingRepeat } from '@medplum/fhirtypes';
import { Autocomplete, TextField } from '@mui/material';
import { FieldGroup } from './FieldGroup';
import { inputId, withField, type InputProps } from './inputProps';
import { parseNumberInput } from './PrimitiveInput';
import { SelectInput } from './SelectInput';
import { TextPart } from './TextPart';

export const TIMING_PERIOD_UNITS = ['s', 'min', 'h', 'd', 'wk', 'mo', 'a'] as const;
export const TIMING_DAYS_OF_WEEK = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** Period defaults to 1 when it is not a number (app-spec §5). */
export function timingPeriod(text: string): number {
  const value = parseNumberInput(text);
  return value === undefined ? 1 : value;
}

/** Timing: repeat period, period unit and days of week. */
export function TimingInput(props: InputProps<Timing>) {
  const repeat = props.value?.repeat;
  const setRepeat = (key: keyof TimingRepeat, next: unknown) =>
    props.onChange(withField(props.value, 'repeat', withField(repeat, key, next)));
  const p = props.path;
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <TextPart
        label="Repeat every"
        type="number"
        step="any"
        path={`${p}.repeat.period`}
        value={repeat?.period === undefined ? undefined : String(repeat.period)}
        disabled={props.disabled}
        onChange={(v) => setRepeat('period', v === undefined ? undefined : timingPeriod(v))}
      />
      <SelectInput
        label="Period unit"
        path={`${p}.repeat.periodUnit`}
        options={TIMING_PERIOD_UNITS}
        value={repeat?.periodUnit}
        disabled={props.disabled}
        onChange={(v) => setRepeat('periodUnit', v)}
      />
      <Autocomplete
        multiple
        id={inputId(`${p}.repeat.dayOfWeek`)}
        options={[...TIMING_DAYS_OF_WEEK]}
        value={repeat?.dayOfWeek ?? []}
        disabled={props.disabled}
        onChange={(_event, days) => setRepeat('dayOfWeek', days)}
        renderInput={(params) => <TextField {...params} size="small" label="Days of week" />}
      />
    </FieldGroup>
  );
}
