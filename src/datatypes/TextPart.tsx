import { TextField } from '@mui/material';
import { useState } from 'react';
import { inputId, splitWords } from './inputProps';

/** One text sub-field of a datatype input. */
export function TextPart(props: {
  label: string;
  path: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  disabled?: boolean;
  type?: string;
  step?: string;
  multiline?: boolean;
  placeholder?: string;
}) {
  return (
    <TextField
      id={inputId(props.path)}
      label={props.label}
      size="small"
      type={props.type}
      multiline={props.multiline}
      placeholder={props.placeholder}
      value={props.value ?? ''}
      disabled={props.disabled}
      slotProps={{
        htmlInput: { step: props.step },
        inputLabel: props.type && props.type !== 'text' ? { shrink: true } : undefined,
      }}
      onChange={(event) => props.onChange(event.target.value === '' ? undefined : event.target.value)}
    />
  );
}

/**
 * A space-separated list (HumanName prefix, given, suffix): the text is kept as typed, so a space
 * typed before the next word is not swallowed, and handed back as a list of words.
 */
export function WordListPart(props: {
  label: string;
  path: string;
  value: string[] | undefined;
  onChange: (value: string[] | undefined) => void;
  disabled?: boolean;
}) {
  const joined = (props.value ?? []).join(' ');
  const [text, setText] = useState(joined);
  // A value changed from outside (another input, a reset) replaces the text.
  if ((splitWords(text) ?? []).join(' ') !== joined) setText(joined);
  return (
    <TextPart
      label={props.label}
      path={props.path}
      value={text}
      disabled={props.disabled}
      onChange={(next) => {
        setText(next ?? '');
        props.onChange(splitWords(next ?? ''));
      }}
    />
  );
}
