import type { HumanName } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { splitWords, withField, type InputProps } from './inputProps';
import { SelectInput } from './SelectInput';
import { TextPart } from './TextPart';

export const HUMAN_NAME_USES = ['temp', 'old', 'usual', 'official', 'nickname', 'anonymous', 'maiden'] as const;

/** HumanName: use, then prefix, given and suffix as space-separated lists, and family. */
export function HumanNameInput(props: InputProps<HumanName>) {
  const value = props.value;
  const set = (key: keyof HumanName, next: unknown) => props.onChange(withField(value, key, next));
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <SelectInput
        label="Use"
        path={`${props.path}.use`}
        options={HUMAN_NAME_USES}
        value={value?.use}
        disabled={props.disabled}
        onChange={(v) => set('use', v)}
      />
      <TextPart
        label="Prefix"
        path={`${props.path}.prefix`}
        value={value?.prefix?.join(' ')}
        disabled={props.disabled}
        onChange={(v) => set('prefix', splitWords(v ?? ''))}
      />
      <TextPart
        label="Given"
        path={`${props.path}.given`}
        value={value?.given?.join(' ')}
        disabled={props.disabled}
        onChange={(v) => set('given', splitWords(v ?? ''))}
      />
      <TextPart
        label="Family"
        path={`${props.path}.family`}
        value={value?.family}
        disabled={props.disabled}
        onChange={(v) => set('family', v)}
      />
      <TextPart
        label="Suffix"
        path={`${props.path}.suffix`}
        value={value?.suffix?.join(' ')}
        disabled={props.disabled}
        onChange={(v) => set('suffix', splitWords(v ?? ''))}
      />
    </FieldGroup>
  );
}
