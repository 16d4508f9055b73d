import type { Quantity } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { parseNumberInput } from './PrimitiveInput';
import { SelectInput } from './SelectInput';
import { TextPart } from './TextPart';

export const QUANTITY_COMPARATORS = ['<', '<=', '>=', '>'] as const;

/** Quantity (and Age, Count, Distance, Duration, SimpleQuantity): comparator, value, unit, system, code. */
export function QuantityInput(props: InputProps<Quantity> & { noComparator?: boolean }) {
  const value = props.value;
  const set = (key: keyof Quantity, next: unknown) => props.onChange(withField(value, key, next));
  const p = props.path;
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      {!props.noComparator && (
        <SelectInput
          label="Comparator"
          path={`${p}.comparator`}
          options={QUANTITY_COMPARATORS}
          value={value?.comparator}
          disabled={props.disabled}
          onChange={(v) => set('comparator', v)}
        />
      )}
      <TextPart
        label="Value"
        path={`${p}.value`}
        type="number"
        step="any"
        value={value?.value === undefined ? undefined : String(value.value)}
        disabled={props.disabled}
        onChange={(v) => set('value', parseNumberInput(v ?? ''))}
      />
      <TextPart
        label="Unit"
        path={`${p}.unit`}
        value={value?.unit}
        disabled={props.disabled}
        onChange={(v) => set('unit', v)}
      />
      <TextPart
        label="System"
        path={`${p}.system`}
        value={value?.system}
        disabled={props.disabled}
        onChange={(v) => set('system', v)}
      />
      <TextPart
        label="Code"
        path={`${p}.code`}
        value={value?.code}
        disabled={props.disabled}
        onChange={(v) => set('code', v)}
      />
    </FieldGroup>
  );
}
