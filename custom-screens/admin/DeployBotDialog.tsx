import { useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import type { Bot } from '@medplum/fhirtypes';
import { deployRefusal, refusalOffset } from './deployRefusal';
import { useProjectAdminActions } from './useProjectAdmin';

const starter = `exports.handler = async (medplum, event) => {
  // event.input is what Run (or $execute) sent; event.secrets holds the project secrets.
  return { received: event.input };
};
`;

/**
 * Deploy: the bot's JavaScript (Medplum's form, `exports.handler = async (medplum, event) => …`)
 * sent to `POST Bot/{id}/$deploy`; it is what the next Run executes. A refused deploy keeps the
 * code and the dialog open, with the server's reasons (a syntax error's line and column) under the
 * code and the caret put where they point; so does a dialog closed by a click beside it or Escape
 * (the caller keeps this component mounted, per bot, while `open` is false). Cancel goes back to
 * the code last deployed: the one deployed from here, not the `bot` the dialog was opened with.
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
  // What the server runs now, as far as this dialog knows: where Cancel goes back to.
  const [deployed, setDeployed] = useState(bot.code ?? starter);
  const [code, setCode] = useState(deployed);
  const codeField = useRef<HTMLTextAreaElement>(null);
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
    const sent = code;
    try {
      await actions.deployBot(bot.id as string, sent);
      setDeployed(sent);
      onClose(`Deployed ${bot.name ?? 'the bot'}`);
    } catch (failure) {
      const refusal = deployRefusal(failure);
      setError(refusal.code);
      setGeneral(refusal.general);
      const offset = refusal.code === undefined ? undefined : refusalOffset(sent, refusal.code);
      const field = codeField.current;
      if (field) {
        field.focus();
        if (offset !== undefined) field.setSelectionRange(offset, offset);
      }
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
              inputRef={codeField}
              error={error !== undefined}
              helperText={error ?? 'Runs in the QuickJS sandbox; see docs/binaries-and-bots.md'}
              slotProps={{
                htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } },
                // A refusal may hold several reasons, one a line.
                formHelperText: { sx: { whiteSpace: 'pre-line' } },
              }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              setCode(deployed);
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
