import type { Ratio } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { QuantityInput } from './QuantityInput';

export function RatioInput(props: InputProps<Ratio>) {
  const value = props.value;
  const set = (key: keyof Ratio, next: unknown) => props.onChange(withField(value, key, next));
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <QuantityInput
        label="Numerator"
        path={`${props.path}.numerator`}
        value={value?.numerator}
        disabled={props.disabled}
        onChange={(v) => set('numerator', v)}
      />
      <QuantityInput
        label="Denominator"
        path={`${props.path}.denominator`}
        value={value?.denominator}
        disabled={props.disabled}
        onChange={(v) => set('denominator', v)}
      />
    </FieldGroup>
  );
}
