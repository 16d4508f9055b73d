import { useEffect } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { Alert, Box, Breadcrumbs, CircularProgress, Link, Paper, Typography } from '@mui/material';
import { formatDateTime } from '../../data-provider/formatting';
import { isKnownResourceType } from '../../data-provider/rules';
import { ResourceDetails } from './ResourceDetails';
import { useResourceVersion } from './useResource';
import { useFhirClient } from './useFhirClient';

/** `/:resourceType/:id/_history/:versionId`: one version, as details and as JSON. */
export function ResourceVersionPage() {
  const { resourceType = '', id = '', versionId = '' } = useParams();
  const navigate = useNavigate();
  const known = isKnownResourceType(resourceType);
  const version = useResourceVersion(resourceType, id, versionId);
  const patientViewer = useFhirClient().getProfile()?.resourceType === 'Patient';
  useEffect(() => {
    if (!known) navigate('..', { replace: true });
  }, [known, navigate]);
  if (!known) return null;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Breadcrumbs aria-label="breadcrumb" sx={{ mb: 1 }}>
        {/* A patient has no lists to go back to: the list pages are the care team's (src/shell/portalRouteAccess.ts). */}
        {patientViewer ? (
          <Typography color="text.secondary">{resourceType}</Typography>
        ) : (
          <Link component={RouterLink} to={`/${resourceType}`}>
            {resourceType}
          </Link>
        )}
        <Link component={RouterLink} to={`/${resourceType}/${id}/history`}>
          {id}
        </Link>
        <Typography color="text.primary">Version {versionId}</Typography>
      </Breadcrumbs>
      <Typography variant="h5" component="h1" gutterBottom>
        {resourceType}/{id} version {versionId}
        {version.data?.meta?.lastUpdated ? ` · ${formatDateTime(version.data.meta.lastUpdated)}` : ''}
      </Typography>
      {version.error && <Alert severity="error">{version.error.message}</Alert>}
      {version.isPending && !version.error && <CircularProgress aria-label="Loading..." />}
      {version.data && (
        <Paper variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
          <ResourceDetails resource={version.data} />
          {/* Focusable so keyboard users can scroll wide JSON (WCAG 2.1.1). */}
          <Box
            component="pre"
            tabIndex={0}
            role="region"
            aria-label={`JSON of version ${versionId}`}
            sx={{ m: 0, p: 1, bgcolor: 'action.hover', overflow: 'auto', fontSize: 13 }}
          >
            {JSON.stringify(version.data, null, 2)}
          </Box>
        </Paper>
      )}
    </Box>
  );
}
