import { useState } from 'react';
import { Autocomplete, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { fieldLabel } from './searchColumns';

/** Fields dialog of app-spec §2.6: multi-select of columns, OK; width 550. */
export function FieldsDialog(props: {
  open: boolean;
  fields: string[];
  available: string[];
  onOk: (fields: string[]) => void;
  onCancel: () => void;
}) {
  const [selected, setSelected] = useState<string[]>(props.fields);
  return (
    <Dialog
      open={props.open}
      onClose={props.onCancel}
      slotProps={{ paper: { sx: { width: 550, maxWidth: '100%' } } }}
      TransitionProps={{ onEnter: () => setSelected(props.fields) }}
    >
      <DialogTitle>Fields</DialogTitle>
      <DialogContent>
        <Autocomplete
          multiple
          options={props.available}
          value={selected}
          getOptionLabel={(field) => `${fieldLabel(field)} (${field})`}
          onChange={(_event, value) => setSelected(value)}
          ListboxProps={{ style: { maxHeight: 320 } }}
          renderInput={(params) => <TextField {...params} label="Fields" margin="dense" />}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button variant="contained" onClick={() => props.onOk(selected)} disabled={selected.length === 0}>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}
