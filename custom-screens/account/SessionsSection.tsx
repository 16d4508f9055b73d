import { useCallback, useEffect, useState } from 'react';
import { visuallyHidden } from '@mui/utils';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { formatDateTime } from '../../data-provider/formatting';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { useShellClient, useToast } from '../../src/shell';
import { accountApi, currentSessionId, type ActiveSession } from './accountApi';
import { StackedItem, StackedList, useStackedRows } from './StackedRows';

/** The user's active sessions (from auth/me), each with a sign-out; signing out this one ends it here too. */
export function SessionsSection() {
  const client = useShellClient();
  const toast = useToast();
  const [sessions, setSessions] = useState<ActiveSession[]>();
  const [error, setError] = useState<string>();
  const current = currentSessionId(client);
  const stacked = useStackedRows();

  const load = useCallback(() => {
    accountApi.security(client).then(
      (details) => setSessions(details.sessions),
      (failure: unknown) => setError(normalizeErrorString(failure)),
    );
  }, [client]);
  useEffect(load, [load]);

  const revoke = async (session: ActiveSession) => {
    try {
      await accountApi.revokeSession(client, session.id);
      toast.success('Session signed out');
      if (session.id === current) {
        await client.signOut();
        return;
      }
      load();
    } catch (failure) {
      toast.error(failure);
    }
  };

  const thisSession = (session: ActiveSession) =>
    session.id === current && <Chip size="small" label="This session" color="primary" />;
  const signOut = (session: ActiveSession) => (
    <Button size="small" color="error" onClick={() => void revoke(session)}>
      Sign out
    </Button>
  );

  return (
    <Stack spacing={2} component="section" aria-labelledby="sessions-heading">
      <Typography variant="h6" component="h2" id="sessions-heading">
        Active sessions
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {!sessions && !error && <CircularProgress aria-label="Loading..." size={24} />}
      {sessions && stacked && (
        <StackedList label="Active sessions">
          {sessions.map((session) => (
            <StackedItem
              key={session.id}
              // Sessions have no name: the time tells them apart, labelled as the table's first column is.
              title={`Last active ${session.lastUpdated ? formatDateTime(session.lastUpdated) : 'not known'}`}
              badges={thisSession(session)}
              fields={[
                { label: 'Method', value: session.authMethod || '—' },
                { label: 'Address', value: session.remoteAddress || '—' },
                { label: 'Browser', value: session.userAgent || '—' },
              ]}
              actions={signOut(session)}
            />
          ))}
        </StackedList>
      )}
      {sessions && !stacked && (
        <Table size="small" aria-labelledby="sessions-heading">
          <TableHead>
            <TableRow>
              <TableCell>Last active</TableCell>
              <TableCell>Method</TableCell>
              <TableCell>Address</TableCell>
              <TableCell>Browser</TableCell>
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  Actions
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {sessions.map((session) => (
              <TableRow key={session.id}>
                <TableCell>
                  {session.lastUpdated ? formatDateTime(session.lastUpdated) : ''} {thisSession(session)}
                </TableCell>
                <TableCell>{session.authMethod}</TableCell>
                <TableCell>{session.remoteAddress}</TableCell>
                <TableCell sx={{ maxWidth: 280, overflowWrap: 'anywhere' }}>{session.userAgent}</TableCell>
                <TableCell>{signOut(session)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Stack>
  );
}
