import { useEffect, useMemo } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import type { Resource } from '@medplum/fhirtypes';
import { CHART_TABS, LAB_PROCEDURE_CATEGORY } from '../../config/clinical/chartTabs';
import { newResourceForPatient } from '../../config/clinical/patientReferenceFields';
import { CHART_PROFILE_URLS } from '../../config/clinical/profileUrls';
import { isKnownResourceType } from '../../data-provider/rules';
import { STRUCTURE_DEFINITION_NOT_FOUND } from '../../schema-engine';
import { ResourceEditor } from '../../src/resources/ResourceEditor';
import { useTypeSchema } from '../../src/resources/schemaHooks';
import { authoredOnDefault } from './authoredOnDefault';
import { patientReference, useChartPatient } from './chartPatient';

/** `/Patient/{id}/{resourceType}/new`: the create form with the patient already filled in (app-spec §2.2, §3). */
export function ChartCreatePage() {
  const { patientId = '', resourceType = '' } = useParams();
  const navigate = useNavigate();
  const patient = useChartPatient();
  const known = isKnownResourceType(resourceType);
  const profileUrl = CHART_PROFILE_URLS[resourceType];
  const profile = useTypeSchema(known && profileUrl ? resourceType : undefined, profileUrl);
  useEffect(() => {
    if (!known) navigate('../..', { replace: true });
  }, [known, navigate]);

  const profileMissing = !!profileUrl && !!profile.error;
  const profileReady = !profileUrl || !!profile.data || profileMissing;
  const resource = useMemo(() => {
    const start = newResourceForPatient(resourceType, patientReference(patientId, patient)) as Resource &
      Record<string, unknown>;
    // A new order from the Labs tab is a lab order (app-spec §2.3: Labs lists category 108252007).
    if (resourceType === 'ServiceRequest') start.category = [{ coding: [LAB_PROCEDURE_CATEGORY] }];
    Object.assign(start, authoredOnDefault(resourceType, new Date()));
    if (profileUrl && profile.data) start.meta = { profile: [profileUrl] };
    return start as Resource;
  }, [resourceType, patientId, patient, profileUrl, profile.data]);

  if (!known) return null;
  const label = CHART_TABS.find((tab) => tab.resourceType === resourceType)?.label;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h6" component="h2" gutterBottom>
        New {resourceType}
        {label ? ` (${label})` : ''}
      </Typography>
      {profileMissing && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {profile.error?.message === STRUCTURE_DEFINITION_NOT_FOUND
            ? `The profile ${profileUrl} is not on this server, so the base ${resourceType} form is shown.`
            : `The profile ${profileUrl} could not be loaded (${profile.error?.message}), so the base ${resourceType} form is shown.`}
        </Alert>
      )}
      {!profileReady || !patient ? (
        <CircularProgress aria-label="Loading..." />
      ) : (
        <ResourceEditor key={`${resourceType}:${profile.data ? 'profile' : 'base'}`} resource={resource} />
      )}
    </Box>
  );
}
