import { useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';

interface AppointmentActionDialogProps {
  title: string;
  open: boolean;
  onClose: () => void;
  /** Saves; resolves true when done. On failure the dialog stays open with what was typed. */
  onSubmit: () => Promise<boolean>;
  ready: boolean;
  submitLabel: string;
  /** The button that closes without saving ("Keep appointment": a plain "Cancel" would read as the action). */
  closeLabel: string;
  children: ReactNode;
}

/** The small dialog of Decline and Cancel: a reason, a way back, and the action. */
export function AppointmentActionDialog(props: AppointmentActionDialogProps) {
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
    <Dialog
      open={props.open}
      onClose={props.onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="appointment-action-title"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (props.ready && !saving) void submit();
        }}
      >
        <DialogTitle id="appointment-action-title">{props.title}</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>{props.children}</DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>{props.closeLabel}</Button>
          <Button type="submit" variant="contained" color="error" disabled={!props.ready || saving}>
            {props.submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
