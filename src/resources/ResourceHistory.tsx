import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  CircularProgress,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { Resource } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import { useResourceHistory } from './useResource';
import { versionDiff } from './versionDiff';

function show(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** History tab: the table of versions (Author, Date, Version) and the timeline of changes. */
export function ResourceHistory(props: { resourceType: string; id: string }) {
  const history = useResourceHistory(props.resourceType, props.id);
  if (history.error) return <Alert severity="error">{history.error.message}</Alert>;
  if (!history.data) return <CircularProgress aria-label="Loading..." />;
  const versions = (history.data.entry ?? []).map((entry) => entry.resource).filter((r): r is Resource => !!r);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Table size="small" aria-label="History">
        <TableHead>
          <TableRow>
            <TableCell>Author</TableCell>
            <TableCell>Date</TableCell>
            <TableCell>Version</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {versions.map((version) => (
            <TableRow key={version.meta?.versionId}>
              <TableCell>{version.meta?.author?.display ?? version.meta?.author?.reference ?? ''}</TableCell>
              <TableCell>{version.meta?.lastUpdated ? formatDateTime(version.meta.lastUpdated) : ''}</TableCell>
              <TableCell>
                <Link
                  component={RouterLink}
                  to={`/${props.resourceType}/${props.id}/_history/${version.meta?.versionId}`}
                >
                  {version.meta?.versionId}
                </Link>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Box component="section" aria-label="Timeline">
        <Typography variant="h6" component="h2" gutterBottom>
          Timeline
        </Typography>
        {versions.map((version, index) => {
          // The history bundle lists the newest version first.
          const previous = versions[index + 1];
          const changes = previous ? versionDiff(previous, version) : [];
          return (
            <Paper key={version.meta?.versionId} variant="outlined" sx={{ p: 1.5, mb: 1 }}>
              <Typography variant="subtitle2">
                {previous ? 'Updated' : 'Created'} ·{' '}
                {version.meta?.lastUpdated ? formatDateTime(version.meta.lastUpdated) : ''}
                {version.meta?.author?.display ? ` · ${version.meta.author.display}` : ''}
              </Typography>
              {previous && changes.length === 0 && (
                <Typography variant="body2" color="text.secondary">
                  No changes besides metadata
                </Typography>
              )}
              {changes.length > 0 && (
                <Table size="small" aria-label={`Changes in version ${version.meta?.versionId}`}>
                  <TableHead>
                    <TableRow>
                      <TableCell>Field</TableCell>
                      <TableCell>Before</TableCell>
                      <TableCell>After</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {changes.map((change) => (
                      <TableRow key={change.path}>
                        <TableCell sx={{ fontFamily: 'monospace' }}>{change.path}</TableCell>
                        <TableCell sx={{ color: 'error.main', wordBreak: 'break-word' }}>
                          {show(change.before)}
                        </TableCell>
                        <TableCell sx={{ color: 'success.main', wordBreak: 'break-word' }}>
                          {show(change.after)}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </Paper>
          );
        })}
      </Box>
    </Box>
  );
}
