import { useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';

interface TaskActionDialogProps {
  title: string;
  open: boolean;
  onClose: () => void;
  /** Saves; resolves true when done. The dialog (and what was typed) stays on failure. */
  onSubmit: () => Promise<boolean>;
  /** The input is complete (a note with text, a chosen date...). */
  ready: boolean;
  submitLabel?: string;
  children: ReactNode;
}

/** One dialog of the Task Actions panel: its input, Cancel and a submit enabled once the input is complete. */
export function TaskActionDialog(props: TaskActionDialogProps) {
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    setSaving(true);
    try {
      if (await props.onSubmit()) props.onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby="task-action-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (props.ready && !saving) void submit();
        }}
      >
        <DialogTitle id="task-action-title">{props.title}</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>{props.children}</DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!props.ready || saving}>
            {props.submitLabel ?? 'Save'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
