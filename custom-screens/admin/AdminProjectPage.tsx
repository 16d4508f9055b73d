import { Alert, Box, Divider, Paper, Stack, Typography } from '@mui/material';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { BotsSection } from './BotsSection';
import { ClientAppsSection } from './ClientAppsSection';
import { MembersSection } from './MembersSection';
import { SecretsSection } from './SecretsSection';
import { SitesSection } from './SitesSection';

/**
 * `/admin/project`: the active project's administration, for its admins and super admins. Others
 * are told plainly; the server refuses their writes anyway.
 */
export default function AdminProjectPage() {
  const client = useFhirClient();
  const project = client.getProject();
  const allowed = client.isProjectAdmin() || client.isSuperAdmin();
  return (
    <Box sx={{ p: { xs: 2, sm: 3 }, maxWidth: 1100 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Project administration
      </Typography>
      {!allowed ? (
        <Alert severity="warning">Only the project's admins can see its administration.</Alert>
      ) : (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Stack spacing={3} divider={<Divider />}>
            <section aria-labelledby="admin-project-title">
              <Typography id="admin-project-title" variant="h6" component="h2" sx={{ mb: 1 }}>
                Project details
              </Typography>
              <Typography>
                <strong>Name:</strong> {project?.name ?? 'Unnamed project'}
              </Typography>
              <Typography>
                <strong>ID:</strong> {project?.id}
              </Typography>
              {project?.description && <Typography color="text.secondary">{project.description}</Typography>}
            </section>
            <MembersSection />
            <ClientAppsSection />
            <BotsSection />
            <SecretsSection />
            <SitesSection />
          </Stack>
        </Paper>
      )}
    </Box>
  );
}
