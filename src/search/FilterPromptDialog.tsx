import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import type { Operator } from '../../data-provider/search';
import { OPERATOR_LABELS } from '../../schema-engine';
import { valueInputType, valuePlaceholder } from './FiltersDialog';

/** Single-filter prompt: the value for one column operator chosen from a header menu. */
export function FilterPromptDialog(props: {
  code: string;
  operator: Operator;
  parameterType?: string;
  onOk: (value: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState('');
  const inputType = valueInputType(props.parameterType);
  return (
    <Dialog open onClose={props.onCancel} aria-labelledby="filter-prompt-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (value) props.onOk(value);
        }}
      >
        <DialogTitle id="filter-prompt-title">
          {props.code} {OPERATOR_LABELS[props.operator] ?? props.operator}...
        </DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label="Value"
            type={inputType}
            placeholder={valuePlaceholder(props.parameterType)}
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: inputType === 'number' ? { step: 'any' } : undefined,
            }}
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onCancel}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!value}>
            OK
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
