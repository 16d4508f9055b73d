import { useEffect } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router-dom';
import { Alert, Box, CircularProgress, Paper, Tab, Tabs, Typography } from '@mui/material';
import { getDisplayString } from '../../data-provider/formatting';
import { isKnownResourceType } from '../../data-provider/rules';
import { ResourceDetails } from './ResourceDetails';
import { ResourceEditor } from './ResourceEditor';
import { ResourceHistory } from './ResourceHistory';
import { ResourceJson } from './ResourceJson';
import { useResource } from './useResource';

export const RESOURCE_TABS = ['details', 'edit', 'history', 'json'] as const;
const TAB_LABELS: Record<(typeof RESOURCE_TABS)[number], string> = {
  details: 'Details',
  edit: 'Edit',
  history: 'History',
  json: 'JSON',
};

/** `/:resourceType/:id/*`: tabs Details (default), Edit, History and JSON, chosen by the last path segment. */
export function ResourcePage() {
  const { resourceType = '', id = '', '*': rest = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const known = isKnownResourceType(resourceType);
  const resource = useResource(resourceType, known ? id : undefined);
  const tab = (RESOURCE_TABS as readonly string[]).includes(rest)
    ? (rest as (typeof RESOURCE_TABS)[number])
    : 'details';
  const base = location.pathname.replace(/\/(details|edit|history|json)\/?$/, '').replace(/\/$/, '');

  useEffect(() => {
    if (!known) navigate('..', { replace: true });
  }, [known, navigate]);
  if (!known) return null;

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1, wordBreak: 'break-word' }}>
        {resource.data ? getDisplayString(resource.data) : `${resourceType}/${id}`}
      </Typography>
      <Tabs value={tab} aria-label={`${resourceType} tabs`} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        {RESOURCE_TABS.map((name) => (
          <Tab key={name} value={name} label={TAB_LABELS[name]} component={RouterLink} to={`${base}/${name}`} />
        ))}
      </Tabs>
      <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
        {resource.error && <Alert severity="error">{resource.error.message}</Alert>}
        {resource.isPending && !resource.error && <CircularProgress aria-label="Loading..." />}
        {resource.data && tab === 'details' && <ResourceDetails resource={resource.data} />}
        {resource.data && tab === 'edit' && (
          <ResourceEditor key={resource.data.meta?.versionId} resource={resource.data} />
        )}
        {resource.data && tab === 'history' && <ResourceHistory resourceType={resourceType} id={id} />}
        {resource.data && tab === 'json' && (
          <ResourceJson key={resource.data.meta?.versionId} resource={resource.data} />
        )}
      </Paper>
    </Box>
  );
}
