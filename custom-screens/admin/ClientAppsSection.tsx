import { useState } from 'react';
import { Alert, Box, Button, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Link as RouterLink } from 'react-router-dom';
import type { ClientApplication } from '@medplum/fhirtypes';
import { launchUriProblem } from '../../data-provider/rules';
import { StackedItem, StackedList, useStackedRows } from '../account/StackedRows';
import { AdminSection } from './AdminSection';
import { MaskedSecretField } from './MaskedSecretField';
import { NewAppDialog } from './NewAppDialog';
import { useClientApplications } from './useProjectAdmin';

/** Client applications of the project: name, id (the OAuth2 client_id) and secret, masked until focused. */
export function ClientAppsSection() {
  const clients = useClientApplications();
  const [creating, setCreating] = useState(false);
  // Mounted at the first New client and kept: what was typed survives closing the dialog by mistake.
  const [dialogMounted, setDialogMounted] = useState(false);
  const [outcome, setOutcome] = useState<string>();
  const stacked = useStackedRows();
  const name = (app: ClientApplication) => (
    <Link component={RouterLink} to={`/ClientApplication/${app.id}`}>
      {app.name ?? 'Unnamed client'}
    </Link>
  );
  const inAppsMenu = (app: ClientApplication) =>
    app.launchUri &&
    !launchUriProblem(app.launchUri) && (
      <Typography variant="caption" color="text.secondary" display="block">
        In the chart&apos;s Apps menu
      </Typography>
    );
  const secret = (app: ClientApplication) =>
    app.secret ? (
      <MaskedSecretField readOnly size="small" fullWidth value={app.secret} label={`Secret of ${app.name ?? app.id}`} />
    ) : (
      <Typography color="text.secondary">No secret (public client)</Typography>
    );
  return (
    <AdminSection
      id="admin-clients-title"
      title="Client applications"
      action={
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          onClick={() => {
            setDialogMounted(true);
            setCreating(true);
          }}
        >
          New client
        </Button>
      }
      outcome={outcome}
      onOutcomeClose={() => setOutcome(undefined)}
    >
      {clients.error && <Alert severity="error">{clients.error.message}</Alert>}
      {clients.data?.length === 0 && <Typography color="text.secondary">No client applications yet.</Typography>}
      {clients.data && clients.data.length > 0 && stacked && (
        <StackedList label="Client applications">
          {clients.data.map((app) => (
            <StackedItem
              key={app.id}
              title={name(app)}
              badges={inAppsMenu(app)}
              fields={[
                { label: 'Client ID', value: <Box sx={{ fontFamily: 'monospace' }}>{app.id}</Box> },
                { label: 'Secret', value: secret(app) },
              ]}
            />
          ))}
        </StackedList>
      )}
      {clients.data && clients.data.length > 0 && !stacked && (
        <Table size="small" aria-label="Client applications">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Client ID</TableCell>
              <TableCell sx={{ width: '40%' }}>Secret</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {clients.data.map((app) => (
              <TableRow key={app.id}>
                <TableCell>
                  {name(app)}
                  {inAppsMenu(app)}
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{app.id}</TableCell>
                <TableCell>{secret(app)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {dialogMounted && (
        <NewAppDialog
          kind="client"
          open={creating}
          onClose={(message) => {
            setCreating(false);
            if (message) setOutcome(message);
          }}
        />
      )}
    </AdminSection>
  );
}
