import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Bot } from '@medplum/fhirtypes';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { botRunInput, botRunResultText, runContentTypes } from './botRunInput';
import { useProjectAdminActions } from './useProjectAdmin';

/**
 * Run: sends an input to `POST Bot/{id}/$execute` and shows what the bot answered (or its error).
 * The caller keeps it mounted while `open` is false, so the input typed stays for the next run.
 */
export function RunBotDialog({ bot, open, onClose }: { bot: Bot; open: boolean; onClose: () => void }) {
  const actions = useProjectAdminActions();
  const [input, setInput] = useState('{}');
  const [contentType, setContentType] = useState<(typeof runContentTypes)[number]>('application/json');
  const [problem, setProblem] = useState<string>();
  const [result, setResult] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = botRunInput(input, contentType);
    if (!parsed.ok) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(undefined);
    setBusy(true);
    setResult(undefined);
    try {
      const answer = await actions.runBot(bot.id as string, parsed.body, parsed.contentType);
      setResult({ ok: true, text: botRunResultText(answer) });
    } catch (error) {
      setResult({ ok: false, text: normalizeErrorString(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="run-bot-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="run-bot-title">Run {bot.name ?? 'bot'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              label="Input type"
              value={contentType}
              onChange={(event) => setContentType(event.target.value as (typeof runContentTypes)[number])}
            >
              {runContentTypes.map((type) => (
                <MenuItem key={type} value={type}>
                  {type}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Input"
              multiline
              minRows={4}
              maxRows={16}
              value={input}
              onChange={(event) => setInput(event.target.value)}
              error={problem !== undefined}
              helperText={problem ?? 'What the bot receives as event.input'}
              slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
            />
            <Box role="status" aria-live="polite">
              {busy && <Typography color="text.secondary">Running...</Typography>}
              {result && (
                <>
                  <Typography variant="subtitle2" component="h3">
                    {result.ok ? 'Result' : 'The bot failed'}
                  </Typography>
                  {result.ok ? (
                    <Box
                      component="pre"
                      aria-label="Bot result"
                      sx={{ p: 1, m: 0, bgcolor: 'action.hover', borderRadius: 1, overflow: 'auto', maxHeight: 300 }}
                    >
                      {result.text}
                    </Box>
                  ) : (
                    <Alert severity="error">{result.text}</Alert>
                  )}
                </>
              )}
            </Box>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Close</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Run
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
