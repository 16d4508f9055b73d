import { Alert, CircularProgress, List, Paper, Stack, Typography } from '@mui/material';
import { chartTabOf } from '../../config/clinical/chartTabs';
import { canPerformOnType } from '../../src/resources/accessRules';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { mayOpenChartTab } from '../chart/chartTabAccess';
import { useChartAccess } from '../chart/useChartAccess';
import { HereTodayRow } from './HereTodayRow';
import { HERE_TODAY_LIMIT } from './hereTodaySearch';
import { useHereToday } from './useHereToday';

export const HERE_TODAY_TITLE = 'Here today';
export const NOBODY_HERE = 'Nobody has checked in yet today.';

/**
 * Who is in the building now, at the top of Scheduling > New Appointment: today's appointments whose patient has
 * checked in, longest wait first, each with since when they wait, with whom, and the next step.
 * Shown to the desk and the clinicians alike; the steps are the ones each caller's policy allows.
 */
export function HereTodaySection() {
  const client = useFhirClient();
  const access = useChartAccess();
  const here = useHereToday();
  const mayUpdate = canPerformOnType(client.getAccessPolicy(), client.isSuperAdmin(), 'Appointment', 'update');
  const noteTab = chartTabOf('encounter');
  const mayWriteNote = !!noteTab && mayOpenChartTab(noteTab, access);
  const count = here.visits.length;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby="here-today-heading"
      sx={{ p: { xs: 1.5, sm: 2 }, pb: { xs: 0.5, sm: 1 }, mb: 2 }}
    >
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
        <Typography id="here-today-heading" variant="h6" component="h2">
          {HERE_TODAY_TITLE}
        </Typography>
        {count > 0 && (
          <Typography variant="body2" color="text.secondary" data-testid="here-today-count">
            {count === 1 ? '1 patient checked in' : `${count} patients checked in`}, longest wait first
          </Typography>
        )}
      </Stack>
      {here.error && (
        <Alert severity="error" sx={{ my: 1 }}>
          {here.error.message}
        </Alert>
      )}
      {here.loading && <CircularProgress size={24} aria-label="Loading..." sx={{ my: 1 }} />}
      {!here.loading && !here.error && count === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
          {NOBODY_HERE}
        </Typography>
      )}
      {count > 0 && (
        <List disablePadding aria-label={HERE_TODAY_TITLE}>
          {here.visits.map((visit, index) => (
            <HereTodayRow
              key={visit.appointment.id}
              visit={visit}
              now={here.now}
              mayUpdate={mayUpdate}
              mayWriteNote={mayWriteNote}
              divider={index < count - 1}
            />
          ))}
        </List>
      )}
      {here.more && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', py: 1 }}>
          Showing the first {HERE_TODAY_LIMIT}, by appointment time.
        </Typography>
      )}
    </Paper>
  );
}
