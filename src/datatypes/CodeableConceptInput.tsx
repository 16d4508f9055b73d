import type { CodeableConcept, Coding } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { CodingInput } from './CodingInput';
import { withField, type InputProps } from './inputProps';
import { TextPart } from './TextPart';

/** CodeableConcept: its first coding from the bound ValueSet, and its text; further codings are kept. */
export function CodeableConceptInput(props: InputProps<CodeableConcept> & { valueSet?: string }) {
  const value = props.value;
  const setCoding = (coding: Coding | undefined) => {
    const rest = value?.coding?.slice(1) ?? [];
    props.onChange(withField(value, 'coding', coding ? [coding, ...rest] : rest));
  };
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <CodingInput
        label="Coding"
        path={`${props.path}.coding`}
        valueSet={props.valueSet}
        value={value?.coding?.[0]}
        disabled={props.disabled}
        onChange={setCoding}
      />
      <TextPart
        label="Text"
        path={`${props.path}.text`}
        value={value?.text}
        disabled={props.disabled}
        onChange={(text) => props.onChange(withField(value, 'text', text))}
      />
    </FieldGroup>
  );
}
