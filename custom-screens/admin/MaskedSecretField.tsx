import { useState } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';

/**
 * A secret's value, masked until the field has focus (app-spec §5): shoulder-surfers see dots,
 * the admin who clicks or tabs into it reads and copies the value. Editable unless `readOnly`.
 */
export function MaskedSecretField({ readOnly, ...props }: TextFieldProps & { readOnly?: boolean }) {
  const [focused, setFocused] = useState(false);
  return (
    <TextField
      {...props}
      type={focused ? 'text' : 'password'}
      autoComplete="off"
      onFocus={(event) => {
        setFocused(true);
        props.onFocus?.(event);
      }}
      onBlur={(event) => {
        setFocused(false);
        props.onBlur?.(event);
      }}
      slotProps={{
        ...props.slotProps,
        htmlInput: { readOnly, spellCheck: false, 'data-masked': focused ? 'false' : 'true' },
      }}
    />
  );
}
