import { lazy, Suspense, useEffect } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router-dom';
import { Alert, Box, CircularProgress, Paper, Tab, Tabs, Typography } from '@mui/material';
import { isKnownResourceType } from '../../data-provider/rules';
import { ResourceDetails } from './ResourceDetails';
import { ResourceEditor } from './ResourceEditor';
import { ResourceHistory } from './ResourceHistory';
import { ResourceJson } from './ResourceJson';
import { canPerformOnType } from './accessRules';
import { useFhirClient } from './useFhirClient';
import { useRecordTitle } from './useRecordTitle';
import { useResource } from './useResource';
import type { Questionnaire } from '@medplum/fhirtypes';

// Both load only where they are used (a Questionnaire's Preview tab; the tasks below a resource's details).
const QuestionnairePreview = lazy(() =>
  import('../questionnaire/QuestionnairePreview').then((m) => ({ default: m.QuestionnairePreview })),
);
const ResourceTasks = lazy(() => import('../../custom-screens/tasks').then((m) => ({ default: m.ResourceTasks })));

export const RESOURCE_TABS = ['details', 'edit', 'history', 'json', 'preview'] as const;
const TAB_LABELS: Record<(typeof RESOURCE_TABS)[number], string> = {
  details: 'Details',
  edit: 'Edit',
  history: 'History',
  json: 'JSON',
  preview: 'Preview',
};

interface Viewer {
  /** The caller's policy lets it update this type: without it Edit would only say "Permission denied". */
  mayUpdate: boolean;
  /**
   * A patient in the portal: Edit and JSON are the console's, not part of her own record (the
   * portal's routes refuse them too), even where her policy lets her update (marking a message read).
   */
  patient: boolean;
}

/** Preview (filling the form in) exists for Questionnaires only. */
function tabsOf(resourceType: string, viewer: Viewer): readonly (typeof RESOURCE_TABS)[number][] {
  return RESOURCE_TABS.filter(
    (tab) =>
      (tab !== 'preview' || resourceType === 'Questionnaire') &&
      (tab !== 'edit' || (viewer.mayUpdate && !viewer.patient)) &&
      (tab !== 'json' || !viewer.patient),
  );
}

/** `/:resourceType/:id/*`: tabs Details (default), Edit, History and JSON, chosen by the last path segment. */
export function ResourcePage() {
  const { resourceType = '', id = '', '*': rest = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const known = isKnownResourceType(resourceType);
  const resource = useResource(resourceType, known ? id : undefined);
  const title = useRecordTitle(resource.data, `${resourceType}/${id}`);
  const client = useFhirClient();
  // The tasks about a record are the care team's work list, not part of a patient's own record.
  const patientViewer = client.getProfile()?.resourceType === 'Patient';
  const viewer: Viewer = {
    mayUpdate: canPerformOnType(client.getAccessPolicy(), client.isSuperAdmin(), resourceType, 'update'),
    patient: patientViewer,
  };
  const tabs = tabsOf(resourceType, viewer);
  const tab = (tabs as readonly string[]).includes(rest) ? (rest as (typeof RESOURCE_TABS)[number]) : 'details';
  const base = location.pathname.replace(/\/(details|edit|history|json|preview)\/?$/, '').replace(/\/$/, '');

  useEffect(() => {
    if (!known) navigate('..', { replace: true });
  }, [known, navigate]);
  if (!known) return null;

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1, wordBreak: 'break-word' }}>
        {title}
      </Typography>
      <Tabs value={tab} aria-label={`${resourceType} tabs`} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        {tabs.map((name) => (
          <Tab key={name} value={name} label={TAB_LABELS[name]} component={RouterLink} to={`${base}/${name}`} />
        ))}
      </Tabs>
      <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
        {resource.error && <Alert severity="error">{resource.error.message}</Alert>}
        {resource.isPending && !resource.error && <CircularProgress aria-label="Loading..." />}
        {resource.data && tab === 'details' && <ResourceDetails resource={resource.data} />}
        {resource.data && tab === 'details' && resourceType !== 'Task' && !patientViewer && (
          <Suspense fallback={null}>
            <ResourceTasks reference={`${resourceType}/${id}`} />
          </Suspense>
        )}
        {resource.data?.resourceType === 'Questionnaire' && tab === 'preview' && (
          <Suspense fallback={<CircularProgress aria-label="Loading..." />}>
            <QuestionnairePreview key={resource.data.meta?.versionId} questionnaire={resource.data as Questionnaire} />
          </Suspense>
        )}
        {/* Keyed by the record, not its version: a refetch must not remount (and empty) a form being
            edited; the editor and the JSON tab take a newer version themselves while nothing was typed. */}
        {resource.data && tab === 'edit' && <ResourceEditor key={`${resourceType}/${id}`} resource={resource.data} />}
        {resource.data && tab === 'history' && <ResourceHistory resourceType={resourceType} id={id} />}
        {resource.data && tab === 'json' && <ResourceJson key={`${resourceType}/${id}`} resource={resource.data} />}
      </Paper>
    </Box>
  );
}
