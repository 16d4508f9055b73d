import type { Address } from '@medplum/fhirtypes';
import { ADDRESS_TYPES, ADDRESS_USES } from '../../data-provider/rules';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { SelectInput } from './SelectInput';
import { TextPart } from './TextPart';

/** Address: use, type, two lines, city, state, postal code (data-and-client-layer-spec §2). */
export function AddressInput(props: InputProps<Address>) {
  const value = props.value;
  const set = (key: keyof Address, next: unknown) => props.onChange(withField(value, key, next));
  const setLine = (index: number, text: string | undefined) => {
    const lines = [...(value?.line ?? [])];
    lines[index] = text ?? '';
    while (lines.length && !lines[lines.length - 1]) lines.pop();
    set('line', lines.length ? lines : undefined);
  };
  const p = props.path;
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <SelectInput
        label="Use"
        path={`${p}.use`}
        options={ADDRESS_USES}
        value={value?.use}
        disabled={props.disabled}
        onChange={(v) => set('use', v)}
      />
      <SelectInput
        label="Type"
        path={`${p}.type`}
        options={ADDRESS_TYPES}
        value={value?.type}
        disabled={props.disabled}
        onChange={(v) => set('type', v)}
      />
      <TextPart
        label="Line 1"
        path={`${p}.line1`}
        value={value?.line?.[0]}
        disabled={props.disabled}
        onChange={(v) => setLine(0, v)}
      />
      <TextPart
        label="Line 2"
        path={`${p}.line2`}
        value={value?.line?.[1]}
        disabled={props.disabled}
        onChange={(v) => setLine(1, v)}
      />
      <TextPart
        label="City"
        path={`${p}.city`}
        value={value?.city}
        disabled={props.disabled}
        onChange={(v) => set('city', v)}
      />
      <TextPart
        label="State"
        path={`${p}.state`}
        value={value?.state}
        disabled={props.disabled}
        onChange={(v) => set('state', v)}
      />
      <TextPart
        label="Postal Code"
        path={`${p}.postalCode`}
        value={value?.postalCode}
        disabled={props.disabled}
        onChange={(v) => set('postalCode', v)}
      />
    </FieldGroup>
  );
}
