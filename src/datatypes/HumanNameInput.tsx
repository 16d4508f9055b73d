import type { HumanName } from '@medplum/fhirtypes';
import { FieldGroup } from './FieldGroup';
import { withField, type InputProps } from './inputProps';
import { SelectInput } from './SelectInput';
import { TextPart, WordListPart } from './TextPart';

export const HUMAN_NAME_USES = ['temp', 'old', 'usual', 'official', 'nickname', 'anonymous', 'maiden'] as const;

/** HumanName: use, then prefix, given and suffix as space-separated lists, and family. */
export function HumanNameInput(props: InputProps<HumanName>) {
  const value = props.value;
  const set = (key: keyof HumanName, next: unknown) => props.onChange(withField(value, key, next));
  const p = props.path;
  return (
    <FieldGroup label={props.label} required={props.required} error={props.error}>
      <SelectInput
        label="Use"
        path={`${p}.use`}
        options={HUMAN_NAME_USES}
        value={value?.use}
        disabled={props.disabled}
        onChange={(v) => set('use', v)}
      />
      <WordListPart
        label="Prefix"
        path={`${p}.prefix`}
        value={value?.prefix}
        disabled={props.disabled}
        onChange={(v) => set('prefix', v)}
      />
      <WordListPart
        label="Given"
        path={`${p}.given`}
        value={value?.given}
        disabled={props.disabled}
        onChange={(v) => set('given', v)}
      />
      <TextPart
        label="Family"
        path={`${p}.family`}
        value={value?.family}
        disabled={props.disabled}
        onChange={(v) => set('family', v)}
      />
      <WordListPart
        label="Suffix"
        path={`${p}.suffix`}
        value={value?.suffix}
        disabled={props.disabled}
        onChange={(v) => set('suffix', v)}
      />
    </FieldGroup>
  );
}
