import type { Annotation } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { TextPart } from './TextPart';

/** Annotation: the note's text (placeholder 'Annotation text'); author and time are kept as they are. */
export function AnnotationInput(props: InputProps<Annotation>) {
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <TextPart
        label="Text"
        multiline
        placeholder="Annotation text"
        path={`${props.path}.text`}
        value={props.value?.text}
        disabled={props.disabled}
        onChange={(text) => props.onChange(withField(props.value, 'text', text))}
      />
    </FieldGroup>
  );
}
