import { useLayoutEffect, useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Box, LinearProgress, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useSession, useShellClient } from '../../../src/shell';
import type { Communication } from '@medplum/fhirtypes';
import { MediaUploadButton, mayUploadMedia } from '../../chat/attachments';
import { careTeamName, knownSenderName, type SenderNameContext } from '../../chat/chatMessages';
import { useSenderNames } from '../../chat/useSenderNames';
import { useChartViewer } from '../chartViewer';
import { NotShownUnderPolicy } from '../NotShownUnderPolicy';
import { TimelineEntry } from './TimelineEntry';
import { useTimeline } from './useTimeline';

/** `/Patient/{id}/timeline` (and the chart's default): the patient's story, most pressing first (app-spec §7). */
export function TimelineTab() {
  const { patientId = '' } = useParams();
  const { patientView } = useChartViewer();
  const timeline = useTimeline(patientId, { patientView });
  const queryClient = useQueryClient();
  const { profile, project } = useSession();
  const client = useShellClient();
  // Messages name their sender as the chat does: a bare `Practitioner/…` (an integration's, a bot's)
  // by the looked-up name, and in the patient's own view, when her policy keeps it from her, as her care team.
  const messages = useMemo(
    () =>
      timeline.items.flatMap((item) =>
        item.resource.resourceType === 'Communication' ? [item.resource as Communication] : [],
      ),
    [timeline.items],
  );
  const senderNames = useSenderNames(messages);
  const naming: SenderNameContext = {
    names: senderNames,
    patientReader: patientView
      ? { patient: { reference: `Patient/${patientId}` }, careTeam: careTeamName(project?.name) }
      : undefined,
  };
  // Benchmark mark (docs/benchmarks.md): the timeline's entries are committed to the DOM.
  useLayoutEffect(() => {
    if (!timeline.loading) performance.mark('hearth:chart-timeline-drawn');
  }, [timeline.loading]);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} aria-busy={timeline.loading}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
        <Typography variant="h6" component="h2">
          Timeline
        </Typography>
        {/* A file for the chart: a Media of the patient, uploaded with progress (custom-screens/chat/attachments). */}
        {!patientView && mayUploadMedia(client.getAccessPolicy(), client.isSuperAdmin()) && (
          <MediaUploadButton
            subject={{ reference: `Patient/${patientId}` }}
            operator={profile ? { reference: `${profile.resourceType}/${profile.id}` } : undefined}
            onUploaded={() =>
              queryClient.invalidateQueries({ queryKey: ['hearth-search', 'Media', 'timeline', patientId] })
            }
          />
        )}
      </Stack>
      {timeline.loading && <LinearProgress aria-label="Loading..." />}
      <NotShownUnderPolicy parts={timeline.notAllowed} sx={{ mb: 1 }} />
      {timeline.errors.map((error) => (
        <Alert key={error} severity="error" sx={{ mb: 1 }}>
          {error}
        </Alert>
      ))}
      {!timeline.loading && timeline.items.length === 0 && (
        <Typography>Nothing on this patient's timeline yet.</Typography>
      )}
      <Stack spacing={1} data-testid="timeline">
        {timeline.items.map((item) => (
          <TimelineEntry
            key={item.key}
            item={item}
            patientId={patientId}
            senderName={
              item.resource.resourceType === 'Communication'
                ? knownSenderName(item.resource as Communication, naming)
                : undefined
            }
          />
        ))}
      </Stack>
    </Box>
  );
}
