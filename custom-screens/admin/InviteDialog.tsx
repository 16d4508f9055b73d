import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { fieldErrors } from '../account/fieldErrors';
import { noPolicyAccess } from './accessLabels';
import { AccessPolicySelect } from './AccessPolicySelect';
import { emptyInvite, inviteOutcome, inviteProblems, inviteRequestOf, type InviteForm } from './inviteForm';
import { useAccessPolicies, useEmailDelivery, useProjectAdminActions, useProjectRecord } from './useProjectAdmin';

const serverFields = ['firstName', 'lastName', 'email', 'accessPolicy', 'resourceType'];

/**
 * Invite (`POST /admin/projects/{id}/invite`): adds a person with a new profile and membership;
 * says what happened to the e-mail, including when the server has no mail server to send it.
 * A refused invitation keeps what was typed, and so does a dialog closed by a click beside it or
 * Escape (the caller keeps this component mounted while `open` is false); Cancel discards it.
 */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: (message?: string) => void }) {
  const actions = useProjectAdminActions();
  const policies = useAccessPolicies();
  const project = useProjectRecord();
  const delivery = useEmailDelivery().data?.email.delivery;
  const [form, setForm] = useState<InviteForm>(emptyInvite);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = inviteProblems(form);
    setErrors(problems as Record<string, string>);
    setGeneral(undefined);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const membership = await actions.invite(inviteRequestOf(form));
      discard();
      onClose(inviteOutcome(form, delivery, membership));
    } catch (error) {
      const { byField, general: rest } = fieldErrors(error, serverFields);
      setErrors(byField);
      setGeneral(rest);
    } finally {
      setBusy(false);
    }
  };

  const discard = () => {
    setForm(emptyInvite);
    setErrors({});
    setGeneral(undefined);
  };

  const text = (field: 'firstName' | 'lastName' | 'email', label: string, type = 'text') => (
    <TextField
      label={label}
      type={type}
      required
      value={form[field]}
      onChange={(event) => setForm({ ...form, [field]: event.target.value })}
      error={errors[field] !== undefined}
      helperText={errors[field]}
    />
  );

  return (
    <Dialog open={open} onClose={() => onClose()} fullWidth maxWidth="sm" aria-labelledby="invite-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="invite-dialog-title">Invite a person</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {general && <Alert severity="error">{general}</Alert>}
            <TextField
              select
              label="Role"
              value={form.resourceType}
              onChange={(event) => setForm({ ...form, resourceType: event.target.value as InviteForm['resourceType'] })}
              helperText={
                // The server's invitation always makes a new profile (server/admin/invitation.ts):
                // it takes no existing Patient to link, so the front desk's chart stays separate.
                form.resourceType === 'Patient'
                  ? 'A new Patient record is made for them; an existing chart cannot be linked here'
                  : 'The profile made for them'
              }
            >
              <MenuItem value="Practitioner">Practitioner (staff)</MenuItem>
              <MenuItem value="Patient">Patient</MenuItem>
              <MenuItem value="RelatedPerson">Related person</MenuItem>
            </TextField>
            {text('firstName', 'First name')}
            {text('lastName', 'Last name')}
            {text('email', 'Email', 'email')}
            <AccessPolicySelect
              value={form.accessPolicy}
              onChange={(accessPolicy) => setForm({ ...form, accessPolicy })}
              policies={policies.data ?? []}
              error={errors.accessPolicy}
              noPolicy={noPolicyAccess(form.resourceType, project.data, policies.data)}
            />
            <div>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={form.admin}
                    onChange={(event) => setForm({ ...form, admin: event.target.checked })}
                  />
                }
                label="Project admin"
              />
              <FormControlLabel
                control={
                  <Checkbox
                    checked={form.sendEmail}
                    onChange={(event) => setForm({ ...form, sendEmail: event.target.checked })}
                  />
                }
                label="Send an invitation e-mail"
              />
            </div>
            {delivery === 'outbox' && form.sendEmail && (
              <Alert severity="warning">
                This server has no mail server (SMTP_URL is not set): invitation e-mails are written to its outbox
                folder and nobody receives them.
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              discard();
              onClose();
            }}
          >
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Invite
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
