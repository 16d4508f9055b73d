import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import type { Operator } from '../../data-provider/search';
import { OPERATOR_LABELS } from '../../schema-engine';

/** Single-filter prompt: the value for one column operator chosen from a header menu. */
export function FilterPromptDialog(props: {
  code: string;
  operator: Operator;
  parameterType?: string;
  onOk: (value: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState('');
  const isDate = props.parameterType === 'date';
  return (
    <Dialog open onClose={props.onCancel}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (value) props.onOk(value);
        }}
      >
        <DialogTitle>
          {props.code} {OPERATOR_LABELS[props.operator] ?? props.operator}...
        </DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label="Value"
            type={isDate ? 'date' : props.parameterType === 'number' ? 'number' : 'text'}
            slotProps={isDate ? { inputLabel: { shrink: true } } : undefined}
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
