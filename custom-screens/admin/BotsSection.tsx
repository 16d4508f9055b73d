import { useState } from 'react';
import { Alert, Box, Button, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import type { Bot } from '@medplum/fhirtypes';
import { Link as RouterLink } from 'react-router-dom';
import { StackedItem, StackedList, useStackedRows } from '../account/StackedRows';
import { AdminSection } from './AdminSection';
import { DeployBotDialog } from './DeployBotDialog';
import { NewAppDialog } from './NewAppDialog';
import { RunBotDialog } from './RunBotDialog';
import { useBots } from './useProjectAdmin';

/** The project's bots, each with Deploy (code → $deploy) and Run (input → $execute). */
export function BotsSection() {
  const bots = useBots();
  // The dialogs stay mounted once opened (Deploy: for the last bot chosen), so that code or a name
  // typed survives closing them by mistake; `…Open` says whether they show.
  const [deployTarget, setDeployTarget] = useState<Bot>();
  const [deployOpen, setDeployOpen] = useState(false);
  // Run: kept for the last bot run too, so its input survives closing and is there to run again.
  const [runTarget, setRunTarget] = useState<Bot>();
  const [runOpen, setRunOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [createMounted, setCreateMounted] = useState(false);
  const [outcome, setOutcome] = useState<string>();
  const stacked = useStackedRows();
  // Each dialog ends on its own: creating a bot must not touch a hidden Deploy draft, nor the reverse.
  const deployDone = (message?: string) => {
    setDeployOpen(false);
    if (message) setOutcome(message);
  };
  const createDone = (message?: string) => {
    setCreating(false);
    if (message) setOutcome(message);
  };
  const name = (bot: Bot) => (
    <Link component={RouterLink} to={`/Bot/${bot.id}`}>
      {bot.name ?? 'Unnamed bot'}
    </Link>
  );
  const actions = (bot: Bot) => (
    <>
      <Button
        size="small"
        onClick={() => {
          setDeployTarget(bot);
          setDeployOpen(true);
        }}
        aria-label={`Deploy ${bot.name ?? bot.id}`}
      >
        Deploy
      </Button>
      <Button
        size="small"
        onClick={() => {
          setRunTarget(bot);
          setRunOpen(true);
        }}
        aria-label={`Run ${bot.name ?? bot.id}`}
      >
        Run
      </Button>
    </>
  );
  return (
    <AdminSection
      id="admin-bots-title"
      title="Bots"
      action={
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          onClick={() => {
            setCreateMounted(true);
            setCreating(true);
          }}
        >
          New bot
        </Button>
      }
      outcome={outcome}
      onOutcomeClose={() => setOutcome(undefined)}
    >
      {bots.error && <Alert severity="error">{bots.error.message}</Alert>}
      {bots.data?.length === 0 && <Typography color="text.secondary">No bots yet.</Typography>}
      {bots.data && bots.data.length > 0 && stacked && (
        <StackedList label="Bots">
          {bots.data.map((bot) => (
            <StackedItem
              key={bot.id}
              title={name(bot)}
              fields={[{ label: 'ID', value: <Box sx={{ fontFamily: 'monospace' }}>{bot.id}</Box> }]}
              actions={actions(bot)}
            />
          ))}
        </StackedList>
      )}
      {bots.data && bots.data.length > 0 && !stacked && (
        <Table size="small" aria-label="Bots">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>ID</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {bots.data.map((bot) => (
              <TableRow key={bot.id}>
                <TableCell>{name(bot)}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{bot.id}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {actions(bot)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {/* Siblings: each key says which dialog it is as well as which bot. Keyed by the bot id alone,
          Deploy and Run of the same bot shared one key, and React then kept a second, stale Deploy
          dialog on screen after a deploy (open, deaf to Cancel and Escape, its Deploy sending the
          old code back). */}
      {deployTarget && (
        <DeployBotDialog key={`deploy-${deployTarget.id}`} bot={deployTarget} open={deployOpen} onClose={deployDone} />
      )}
      {runTarget && (
        <RunBotDialog key={`run-${runTarget.id}`} bot={runTarget} open={runOpen} onClose={() => setRunOpen(false)} />
      )}
      {createMounted && <NewAppDialog kind="bot" open={creating} onClose={createDone} />}
    </AdminSection>
  );
}
