import type { FormEvent, ReactNode } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';

export interface SummaryDialogProps {
  title: string;
  open: boolean;
  saving: boolean;
  /** Errors that belong to no field (network, permission, an unmapped server issue). */
  errors: string[];
  /** Escape or a click outside: closes and keeps the draft. */
  onClose(): void;
  /** The Cancel button: closes and forgets the draft. */
  onCancel(): void;
  onSave(): void;
  children: ReactNode;
  /** 'sm' for forms with many fields side by side (vitals). */
  maxWidth?: 'xs' | 'sm';
  /** Shown above the fields: what the clinician is asked to look at before saving (warnings). */
  notice?: ReactNode;
  /**
   * Instead of Save: a button that saves past the notice ("Add anyway"). Only a click on it does:
   * Enter, pressed again in a field, does not confirm a warning.
   */
  confirm?: { label: string; onConfirm(): void };
}

/** The add/edit modal of a summary section: focus stays inside while open (MUI Dialog), Enter saves. */
export function SummaryDialog(props: SummaryDialogProps) {
  const titleId = `summary-dialog-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!props.saving && !props.confirm) props.onSave();
  };
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={props.maxWidth ?? 'xs'}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{props.title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {props.errors.map((error) => (
              <Alert key={error} severity="error" sx={{ whiteSpace: 'pre-line' }}>
                {error}
              </Alert>
            ))}
            {props.notice}
            {props.children}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onCancel}>Cancel</Button>
          {props.confirm ? (
            <Button variant="contained" disabled={props.saving} onClick={props.confirm.onConfirm}>
              {props.saving ? 'Saving…' : props.confirm.label}
            </Button>
          ) : (
            <Button type="submit" variant="contained" disabled={props.saving}>
              {props.saving ? 'Saving…' : 'Save'}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
