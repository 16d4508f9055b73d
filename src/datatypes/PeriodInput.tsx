import type { Period } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { PrimitiveInput } from './PrimitiveInput';

export function PeriodInput(props: InputProps<Period>) {
  const value = props.value;
  const set = (key: keyof Period, next: unknown) => props.onChange(withField(value, key, next));
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <PrimitiveInput
        type="dateTime"
        label="Start"
        path={`${props.path}.start`}
        value={value?.start}
        disabled={props.disabled}
        onChange={(v) => set('start', v)}
      />
      <PrimitiveInput
        type="dateTime"
        label="End"
        path={`${props.path}.end`}
        value={value?.end}
        disabled={props.disabled}
        onChange={(v) => set('end', v)}
      />
    </FieldGroup>
  );
}
