import { useLayoutEffect } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Box, LinearProgress, Stack, Typography } from '@mui/material';
import { TimelineEntry } from './TimelineEntry';
import { useTimeline } from './useTimeline';

/** `/Patient/{id}/timeline` (and the chart's default): the patient's story, most pressing first (app-spec §7). */
export function TimelineTab() {
  const { patientId = '' } = useParams();
  const timeline = useTimeline(patientId);
  // Benchmark mark (docs/benchmarks.md): the timeline's entries are committed to the DOM.
  useLayoutEffect(() => {
    if (!timeline.loading) performance.mark('hearth:chart-timeline-drawn');
  }, [timeline.loading]);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }} aria-busy={timeline.loading}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Timeline
      </Typography>
      {timeline.loading && <LinearProgress aria-label="Loading..." />}
      {timeline.notAllowed.length > 0 && (
        <Alert severity="info" sx={{ mb: 1 }}>
          Not shown, as your access does not include them: {timeline.notAllowed.join(', ')}.
        </Alert>
      )}
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
          <TimelineEntry key={item.key} item={item} patientId={patientId} />
        ))}
      </Stack>
    </Box>
  );
}
