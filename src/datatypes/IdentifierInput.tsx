import type { Identifier } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { TextPart } from './TextPart';

export function IdentifierInput(props: InputProps<Identifier>) {
  const value = props.value;
  const set = (key: keyof Identifier, next: unknown) => props.onChange(withField(value, key, next));
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <TextPart
        label="System"
        path={`${props.path}.system`}
        value={value?.system}
        disabled={props.disabled}
        onChange={(v) => set('system', v)}
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
