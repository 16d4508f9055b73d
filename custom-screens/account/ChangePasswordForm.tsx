import { useState, type FormEvent } from 'react';
import { Alert, Button, Stack, TextField, Typography } from '@mui/material';
import { useShellClient, useToast } from '../../src/shell';
import { accountApi } from './accountApi';
import { fieldErrors } from './fieldErrors';

const FIELDS = ['oldPassword', 'newPassword'] as const;

/** Change password: the current one, then the new one twice. */
export function ChangePasswordForm() {
  const client = useShellClient();
  const toast = useToast();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    if (!oldPassword) missing.oldPassword = 'Current password is required';
    if (!newPassword) missing.newPassword = 'New password is required';
    if (newPassword !== confirm) missing.confirm = 'The passwords do not match';
    setErrors(missing);
    setGeneral(undefined);
    if (Object.keys(missing).length > 0) return;
    setSaving(true);
    try {
      await accountApi.changePassword(client, oldPassword, newPassword);
      setOldPassword('');
      setNewPassword('');
      setConfirm('');
      toast.success('Password changed');
    } catch (error) {
      const { byField, general: rest } = fieldErrors(error, FIELDS);
      setErrors(byField);
      setGeneral(rest);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-labelledby="change-password-heading">
      <Typography variant="h6" component="h2" id="change-password-heading">
        Change password
      </Typography>
      {general && <Alert severity="error">{general}</Alert>}
      <TextField
        type="password"
        label="Current password"
        autoComplete="current-password"
        value={oldPassword}
        onChange={(event) => setOldPassword(event.target.value)}
        error={errors.oldPassword !== undefined}
        helperText={errors.oldPassword}
        required
      />
      <TextField
        type="password"
        label="New password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(event) => setNewPassword(event.target.value)}
        error={errors.newPassword !== undefined}
        helperText={errors.newPassword}
        required
      />
      <TextField
        type="password"
        label="Confirm new password"
        autoComplete="new-password"
        value={confirm}
        onChange={(event) => setConfirm(event.target.value)}
        error={errors.confirm !== undefined}
        helperText={errors.confirm}
        required
      />
      <div>
        <Button type="submit" variant="contained" disabled={saving}>
          Change password
        </Button>
      </div>
    </Stack>
  );
}
