import type { Money } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { parseNumberInput } from './PrimitiveInput';
import { SelectInput } from './SelectInput';
import { TextPart } from './TextPart';

export const MONEY_CURRENCIES = ['USD', 'EUR', 'CAD', 'GBP', 'AUD'] as const;

export function MoneyInput(props: InputProps<Money>) {
  const value = props.value;
  const set = (key: keyof Money, next: unknown) => props.onChange(withField(value, key, next));
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <TextPart
        label="Value"
        path={`${props.path}.value`}
        type="number"
        step="any"
        value={value?.value === undefined ? undefined : String(value.value)}
        disabled={props.disabled}
        onChange={(v) => set('value', parseNumberInput(v ?? ''))}
      />
      <SelectInput
        label="Currency"
        path={`${props.path}.currency`}
        options={MONEY_CURRENCIES}
        value={value?.currency}
        disabled={props.disabled}
        onChange={(v) => set('currency', v)}
      />
    </FieldGroup>
  );
}
