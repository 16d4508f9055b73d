import type { Range } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { QuantityInput } from './QuantityInput';

export function RangeInput(props: InputProps<Range>) {
  const value = props.value;
  const set = (key: keyof Range, next: unknown) => props.onChange(withField(value, key, next));
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <QuantityInput
        noComparator
        label="Low"
        path={`${props.path}.low`}
        value={value?.low}
        disabled={props.disabled}
        onChange={(v) => set('low', v)}
      />
      <QuantityInput
        noComparator
        label="High"
        path={`${props.path}.high`}
        value={value?.high}
        disabled={props.disabled}
        onChange={(v) => set('high', v)}
      />
    </FieldGroup>
  );
}
