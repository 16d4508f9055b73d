import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import type { Bot } from '@medplum/fhirtypes';
import { fieldErrors } from '../account/fieldErrors';
import { useProjectAdminActions } from './useProjectAdmin';

const starter = `exports.handler = async (medplum, event) => {
  // event.input is what Run (or $execute) sent; event.secrets holds the project secrets.
  return { received: event.input };
};
`;

/**
 * Deploy: the bot's JavaScript (Medplum's form, `exports.handler = async (medplum, event) => …`)
 * sent to `POST Bot/{id}/$deploy`; it is what the next Run executes. A refused deploy keeps the
 * code, and so does a dialog closed by a click beside it or Escape (the caller keeps this
 * component mounted, per bot, while `open` is false); Cancel goes back to the deployed code.
 */
export function DeployBotDialog({
  bot,
  open,
  onClose,
}: {
  bot: Bot;
  open: boolean;
  onClose: (message?: string) => void;
}) {
  const actions = useProjectAdminActions();
  const [code, setCode] = useState(bot.code ?? starter);
  const [error, setError] = useState<string>();
  const [general, setGeneral] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setGeneral(undefined);
    if (!code.trim()) {
      setError("The bot's code is required");
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await actions.deployBot(bot.id as string, code);
      onClose(`Deployed ${bot.name ?? 'the bot'}`);
    } catch (failure) {
      const { byField, general: rest } = fieldErrors(failure, ['code']);
      setError(byField.code);
      setGeneral(rest);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={() => onClose()} fullWidth maxWidth="md" aria-labelledby="deploy-bot-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="deploy-bot-title">Deploy {bot.name ?? 'bot'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {general && <Alert severity="error">{general}</Alert>}
            <TextField
              label="Code (JavaScript)"
              multiline
              minRows={12}
              maxRows={30}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              error={error !== undefined}
              helperText={error ?? 'Runs in the QuickJS sandbox; see docs/binaries-and-bots.md'}
              slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              setCode(bot.code ?? starter);
              setError(undefined);
              setGeneral(undefined);
              onClose();
            }}
          >
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Deploy
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
