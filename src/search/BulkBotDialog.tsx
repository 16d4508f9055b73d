import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Link,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { Bot, Resource } from '@medplum/fhirtypes';
import type { FhirDataProvider } from '../../data-provider/react-admin';
import { canRunBots, type BulkCaller } from './bulkAccess';
import { runForEach, type BulkRunStatus } from './bulkBotRun';

/** How many ids one `_id=` search names when the selected resources are read before the run. */
const READ_CHUNK = 100;

export interface BulkBotDialogProps {
  resourceType: string;
  ids: string[];
  caller: BulkCaller;
  onClose: () => void;
  /** After a run ended (the bot may have changed the resources): refresh the list. */
  onFinished: () => void;
}

/**
 * 'Bulk...': runs one of the project's Bots on each selected resource (the resource is the bot's
 * input, as `application/fhir+json`), with progress and each resource's result.
 */
export function BulkBotDialog(props: BulkBotDialogProps) {
  const { resourceType, ids } = props;
  const dataProvider = useDataProvider<FhirDataProvider>();
  const bots = useQuery<Bot[], Error>({
    queryKey: ['hearth-bulk-bots'],
    queryFn: async ({ signal }) => {
      const { data } = await dataProvider.searchBundle('Bot', { query: { _count: 100, _sort: 'name' }, signal });
      return (data.entry ?? []).map((entry) => entry.resource as Bot).filter(Boolean);
    },
    retry: false,
    staleTime: 0,
  });
  const [botId, setBotId] = useState('');
  const [statuses, setStatuses] = useState<ReadonlyMap<string, BulkRunStatus>>();
  const [phase, setPhase] = useState<'choose' | 'running' | 'finished'>('choose');
  const [failure, setFailure] = useState<string>();
  const abort = useRef<AbortController>(undefined);
  const mayRun = canRunBots(props.caller);

  // Leaving the dialog stops starting further runs.
  useEffect(() => () => abort.current?.abort(), []);

  const chosen = bots.data?.find((bot) => bot.id === botId) ?? (bots.data?.length === 1 ? bots.data[0] : undefined);

  async function run(bot: Bot): Promise<void> {
    const controller = new AbortController();
    abort.current = controller;
    setFailure(undefined);
    setPhase('running');
    setStatuses(new Map(ids.map((id) => [id, { state: 'waiting' }])));
    const report = (id: string, status: BulkRunStatus) => setStatuses((current) => new Map(current).set(id, status));
    try {
      const resources = new Map<string, Resource>();
      for (let start = 0; start < ids.length; start += READ_CHUNK) {
        const chunk = ids.slice(start, start + READ_CHUNK);
        const { data } = await dataProvider.searchBundle(resourceType, {
          query: { _id: chunk.join(','), _count: chunk.length },
          signal: controller.signal,
        });
        for (const entry of data.entry ?? []) if (entry.resource?.id) resources.set(entry.resource.id, entry.resource);
      }
      await runForEach(
        ids,
        async (id) => {
          const resource = resources.get(id);
          if (!resource) throw new Error(`${resourceType}/${id} was not found (deleted meanwhile?)`);
          const { data } = await dataProvider.executeBot({
            bot: bot.id as string,
            body: resource,
            contentType: 'application/fhir+json',
          });
          return data;
        },
        report,
        { signal: controller.signal },
      );
    } catch (error) {
      if (!controller.signal.aborted) setFailure((error as Error).message);
    }
    setPhase('finished');
    props.onFinished();
  }

  const counts = useMemo(() => {
    const all = [...(statuses?.values() ?? [])];
    return {
      done: all.filter((s) => s.state === 'done').length,
      failed: all.filter((s) => s.state === 'failed').length,
      skipped: all.filter((s) => s.state === 'skipped').length,
    };
  }, [statuses]);
  const finishedCount = counts.done + counts.failed + counts.skipped;
  const plural = ids.length === 1 ? '' : 's';

  return (
    <Dialog
      open
      onClose={phase === 'running' ? undefined : props.onClose}
      maxWidth="md"
      fullWidth
      aria-labelledby="bulk-dialog-title"
    >
      <DialogTitle id="bulk-dialog-title">
        Bulk: run a bot on {ids.length} {resourceType} resource{plural}
      </DialogTitle>
      <DialogContent>
        {bots.isPending && <Typography>Loading...</Typography>}
        {bots.error && <Alert severity="error">{bots.error.message}</Alert>}
        {bots.data && bots.data.length === 0 && (
          <Alert severity="info">
            No bots in this project.{' '}
            <Link component={RouterLink} to="/Bot/new">
              Create a bot
            </Link>{' '}
            (its code receives each selected resource as its input).
          </Alert>
        )}
        {bots.data && bots.data.length > 0 && (
          <>
            {!mayRun && (
              <Alert severity="warning" sx={{ mb: 2 }}>
                Your access level does not allow running bots: the server runs them only for project admins and members
                whose access policy grants Bot.
              </Alert>
            )}
            <TextField
              select
              fullWidth
              margin="dense"
              label="Bot"
              value={chosen?.id ?? ''}
              disabled={phase !== 'choose'}
              onChange={(event) => setBotId(event.target.value)}
              helperText={
                chosen?.description ??
                `The bot runs once per ${resourceType}, with the resource as its input (application/fhir+json).`
              }
            >
              {bots.data.map((bot) => (
                <MenuItem key={bot.id} value={bot.id}>
                  {bot.name ?? `Bot/${bot.id}`}
                </MenuItem>
              ))}
            </TextField>
          </>
        )}
        {failure && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {failure}
          </Alert>
        )}
        {statuses && (
          <Box sx={{ mt: 2 }}>
            <LinearProgress
              variant="determinate"
              value={ids.length ? (100 * finishedCount) / ids.length : 100}
              aria-label="Bulk progress"
            />
            <Typography variant="body2" sx={{ mt: 1 }} aria-live="polite">
              {finishedCount} of {ids.length} finished · {counts.done} succeeded · {counts.failed} failed
              {counts.skipped ? ` · ${counts.skipped} not run` : ''}
            </Typography>
            <TableContainer sx={{ maxHeight: 320, mt: 1 }}>
              <Table size="small" stickyHeader aria-label="Bulk results">
                <TableHead>
                  <TableRow>
                    <TableCell>Resource</TableCell>
                    <TableCell>Result</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {ids.map((id) => (
                    <ResultRow key={id} reference={`${resourceType}/${id}`} status={statuses.get(id)} />
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {phase === 'running' ? (
          <Button onClick={() => abort.current?.abort()}>Stop</Button>
        ) : (
          <Button onClick={props.onClose}>{phase === 'finished' ? 'Close' : 'Cancel'}</Button>
        )}
        {phase === 'choose' && !!bots.data?.length && (
          <Button variant="contained" disabled={!chosen} onClick={() => chosen && void run(chosen)}>
            Run
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** One resource's line; memoised so a status change re-renders only its own row. */
const ResultRow = memo(function ResultRow(props: { reference: string; status: BulkRunStatus | undefined }) {
  const { status } = props;
  let text = 'Waiting';
  let color = 'text.secondary';
  if (status?.state === 'running') text = 'Running...';
  if (status?.state === 'done') {
    text = `Success: ${status.summary}`;
    color = 'success.main';
  }
  if (status?.state === 'failed') {
    text = `Error: ${status.message}`;
    color = 'error.main';
  }
  if (status?.state === 'skipped') text = status.message;
  return (
    <TableRow>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{props.reference}</TableCell>
      <TableCell sx={{ color, wordBreak: 'break-word' }}>{text}</TableCell>
    </TableRow>
  );
});
