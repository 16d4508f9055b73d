import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Link, ListItem, Stack, Typography } from '@mui/material';
import { chartPath } from '../chart/chartPaths';
import { AppointmentStatusChip } from './AppointmentStatusChip';
import { appointmentActions, fulfilledAppointment, noShowAppointment } from './appointmentActionRules';
import { APPOINTMENT_TOASTS } from './appointmentMessages';
import { arrivalText, clockTime } from './arrivalText';
import type { HereTodayArrival } from './useHereToday';
import { useAppointmentUpdate } from './useAppointmentUpdate';

interface HereTodayRowProps {
  visit: HereTodayArrival;
  now: Date;
  /** The caller's policy lets them update Appointments (the desk's Mark fulfilled and No-show). */
  mayUpdate: boolean;
  /** The caller may write a visit note (the chart's Encounter tab). */
  mayWriteNote: boolean;
  /** A line under the row (all but the last). */
  divider: boolean;
}

/** "9:30 AM appointment with Dr. Alice Carter · Follow-up visit". */
function appointmentLine(visit: HereTodayArrival): string {
  const { appointment, clinicians } = visit;
  const when = appointment.start ? `${clockTime(appointment.start)} appointment` : 'Appointment';
  const withWhom = clinicians.length ? ` with ${clinicians.join(', ')}` : '';
  const what = appointment.description?.trim() ? ` · ${appointment.description.trim()}` : '';
  return `${when}${withWhom}${what}`;
}

/**
 * One checked-in patient: the status as a word on its colour, their name (to the chart), since
 * when they wait, the appointment and its clinician; then what comes next — the visit note, and
 * the appointment actions the appointment's own page offers for its status (appointmentActions).
 */
export function HereTodayRow({ visit, now, mayUpdate, mayWriteNote, divider }: HereTodayRowProps) {
  const { appointment, patientId, patientName } = visit;
  const update = useAppointmentUpdate(appointment);
  const plan = appointmentActions(appointment, now);
  const fulfil = mayUpdate && plan.actions.includes('fulfil');
  const noShow = mayUpdate && plan.actions.includes('noShow');
  const headingId = `here-today-${appointment.id}`;
  return (
    <ListItem
      divider={divider}
      aria-labelledby={headingId}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 2, rowGap: 1, px: 0, py: 1.25 }}
    >
      <Box sx={{ flex: '1 1 280px', minWidth: 0 }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
          <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
            {patientId ? (
              <Link component={RouterLink} to={chartPath(patientId)} underline="hover">
                {patientName}
              </Link>
            ) : (
              patientName
            )}
          </Typography>
          <AppointmentStatusChip status={appointment.status} />
        </Stack>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere', mt: 0.25 }}>
          {arrivalText(visit.arrival, now)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          <Link component={RouterLink} to={`/Appointment/${appointment.id}`} color="inherit" underline="hover">
            {appointmentLine(visit)}
          </Link>
        </Typography>
      </Box>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap', ml: 'auto' }}
        aria-label={`Next for ${patientName}`}
        role="group"
      >
        {patientId && mayWriteNote && (
          <Button component={RouterLink} to={chartPath(patientId, 'encounter')} variant="contained" size="small">
            Visit note
          </Button>
        )}
        {fulfil && (
          <Button
            size="small"
            variant="outlined"
            disabled={update.pending}
            onClick={() => void update.run(APPOINTMENT_TOASTS.fulfilled, fulfilledAppointment)}
          >
            Mark fulfilled
          </Button>
        )}
        {noShow && (
          <Button
            size="small"
            variant="outlined"
            disabled={update.pending}
            onClick={() => void update.run(APPOINTMENT_TOASTS.noShow, noShowAppointment)}
          >
            No-show
          </Button>
        )}
      </Stack>
    </ListItem>
  );
}
