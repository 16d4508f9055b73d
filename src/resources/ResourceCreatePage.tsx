import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Box, Paper, Typography } from '@mui/material';
import type { Resource } from '@medplum/fhirtypes';
import { isKnownResourceType } from '../../data-provider/rules';
import { ResourceEditor } from './ResourceEditor';

/** `/:resourceType/new`: the editor on an empty resource of the type (or of `props.resourceType`). */
export function ResourceCreatePage(props: { resourceType?: string }) {
  const params = useParams();
  const resourceType = props.resourceType ?? params.resourceType ?? '';
  const navigate = useNavigate();
  const known = isKnownResourceType(resourceType);
  useEffect(() => {
    if (!known) navigate('..', { replace: true });
  }, [known, navigate]);
  if (!known) return null;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" gutterBottom>
        New {resourceType}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <ResourceEditor resource={{ resourceType } as Resource} />
      </Paper>
    </Box>
  );
}
