import type { ContactPoint } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { SelectInput } from './SelectInput';
import { TextPart } from './TextPart';

export const CONTACT_POINT_SYSTEMS = ['email', 'phone', 'fax', 'pager', 'sms', 'other'] as const;
export const CONTACT_POINT_USES = ['home', 'work', 'temp', 'old', 'mobile'] as const;

export function ContactPointInput(props: InputProps<ContactPoint>) {
  const value = props.value;
  const set = (key: keyof ContactPoint, next: unknown) => props.onChange(withField(value, key, next));
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <SelectInput
        label="System"
        path={`${props.path}.system`}
        options={CONTACT_POINT_SYSTEMS}
        value={value?.system}
        disabled={props.disabled}
        onChange={(v) => set('system', v)}
      />
      <SelectInput
        label="Use"
        path={`${props.path}.use`}
        options={CONTACT_POINT_USES}
        value={value?.use}
        disabled={props.disabled}
        onChange={(v) => set('use', v)}
      />
      <TextPart
        label="Value"
        path={`${props.path}.value`}
        value={value?.value}
        disabled={props.disabled}
        onChange={(v) => set('value', v)}
      />
    </FieldGroup>
  );
}
