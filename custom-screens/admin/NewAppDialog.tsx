import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { launchUriProblem, redirectUriProblem } from '../../data-provider/rules';
import { fieldErrors } from '../account/fieldErrors';
import { useProjectAdminActions } from './useProjectAdmin';

type Field = 'name' | 'description' | 'redirectUri' | 'launchUri';

const emptyForm: Record<Field, string> = { name: '', description: '', redirectUri: '', launchUri: '' };

/**
 * New client application (`POST /admin/projects/{id}/client`, with a generated secret) or new bot
 * (`…/bot`). A refused create keeps what was typed, and so does a dialog closed by a click beside
 * it or Escape (the caller keeps this component mounted while `open` is false); Cancel discards it.
 */
export function NewAppDialog({
  kind,
  open,
  onClose,
}: {
  kind: 'client' | 'bot';
  open: boolean;
  onClose: (message?: string) => void;
}) {
  const actions = useProjectAdminActions();
  const [form, setForm] = useState<Record<Field, string>>(emptyForm);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [general, setGeneral] = useState<string>();
  const [busy, setBusy] = useState(false);
  const noun = kind === 'client' ? 'client application' : 'bot';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems: Partial<Record<Field, string>> = {};
    if (!form.name.trim()) problems.name = 'Name is required';
    const redirect = form.redirectUri.trim();
    if (kind === 'client' && redirect) {
      const problem = redirectUriProblem(redirect);
      if (problem) problems.redirectUri = problem;
    }
    const launch = form.launchUri.trim();
    if (kind === 'client' && launch) {
      const problem = launchUriProblem(launch);
      if (problem) problems.launchUri = problem;
    }
    setErrors(problems);
    setGeneral(undefined);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const input = {
        name: form.name.trim(),
        ...(form.description.trim() ? { description: form.description.trim() } : {}),
      };
      if (kind === 'client')
        await actions.createClient({
          ...input,
          ...(redirect ? { redirectUri: redirect } : {}),
          ...(launch ? { launchUri: launch } : {}),
        });
      else await actions.createBot(input);
      discard();
      onClose(`Created the ${noun} ${input.name}`);
    } catch (error) {
      const { byField, general: rest } = fieldErrors(error, ['name', 'description', 'redirectUri', 'launchUri']);
      setErrors(byField);
      setGeneral(rest);
    } finally {
      setBusy(false);
    }
  };

  const discard = () => {
    setForm(emptyForm);
    setErrors({});
    setGeneral(undefined);
  };

  const field = (name: Field, label: string, required = false, hint?: string) => (
    <TextField
      label={label}
      required={required}
      value={form[name]}
      onChange={(event) => setForm({ ...form, [name]: event.target.value })}
      error={errors[name] !== undefined}
      helperText={errors[name] ?? hint}
    />
  );

  return (
    <Dialog open={open} onClose={() => onClose()} fullWidth maxWidth="sm" aria-labelledby="new-app-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="new-app-title">New {noun}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {general && <Alert severity="error">{general}</Alert>}
            {field('name', 'Name', true)}
            {field('description', 'Description')}
            {kind === 'client' && field('redirectUri', 'Redirect URI')}
            {kind === 'client' &&
              field(
                'launchUri',
                'Launch URI',
                false,
                'For a SMART app: where the chart’s “Apps” menu starts an EHR launch',
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
            Create
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
