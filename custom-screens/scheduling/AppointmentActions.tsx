import { useState } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router-dom';
import { Alert, Box, Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import type { Appointment } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import { canPerformOnType } from '../../src/resources/accessRules';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { AppointmentActionDialog } from './AppointmentActionDialog';
import { AppointmentStatusChip } from './AppointmentStatusChip';
import {
  appointmentActions,
  bookedAppointment,
  cancelledAppointment,
  checkedInAppointment,
  declinedAppointment,
  fulfilledAppointment,
  noShowAppointment,
  reasonText,
  type BookBlock,
} from './appointmentActionRules';
import { APPOINTMENT_TOASTS } from './appointmentMessages';
import { useAppointmentUpdate } from './useAppointmentUpdate';

type DialogName = 'decline' | 'cancel';

const BLOCKED_TEXT: Record<BookBlock, string> = {
  noTime: 'This request has no start and end yet, so it cannot be booked. Set its time on the',
  pastTime: 'The requested time has passed, so it cannot be booked as it is. Choose a new time on the',
};

/** "Mar 7, 2026, 9:00 AM – 9:20 AM": the slot as the app shows dates and times. */
function slotText(appointment: Appointment): string | undefined {
  if (!appointment.start) return undefined;
  const start = formatDateTime(appointment.start);
  const end = appointment.end ? formatDateTime(appointment.end, undefined, { timeStyle: 'short' }) : undefined;
  return end ? `${start} – ${end}` : start;
}

/**
 * Above an appointment's details (`/Appointment/{id}`, and in the chart): its status as a chip and
 * the one or two things the desk does next, by status and time (appointmentActionRules.ts). Shown
 * on the current version only, with buttons only for a caller whose policy allows updating
 * Appointments; each writes the whole appointment back with the version read (If-Match).
 */
export function AppointmentActions({ appointment }: { appointment: Appointment }) {
  const { versionId } = useParams();
  // A past version (`/_history/{versionId}`) is a record of what was: nothing to act on.
  if (versionId) return null;
  return <AppointmentActionPanel appointment={appointment} />;
}

function AppointmentActionPanel({ appointment }: { appointment: Appointment }) {
  const client = useFhirClient();
  const location = useLocation();
  const update = useAppointmentUpdate(appointment);
  const [dialog, setDialog] = useState<DialogName | undefined>();
  // What was typed stays through a failed save (a conflict reloads only the appointment).
  const [declineText, setDeclineText] = useState('');
  const [cancelText, setCancelText] = useState('');
  const mayUpdate = canPerformOnType(client.getAccessPolicy(), client.isSuperAdmin(), 'Appointment', 'update');
  const plan = appointmentActions(appointment);
  const slot = slotText(appointment);
  const reason = appointment.status === 'cancelled' ? reasonText(appointment.cancelationReason) : undefined;
  const editPath = `${location.pathname.replace(/\/(details)?\/?$/, '')}/edit`;
  const close = () => setDialog(undefined);

  const act = (label: string, onClick: () => void, variant: 'contained' | 'outlined' = 'outlined') => (
    <Button key={label} variant={variant} onClick={onClick} disabled={update.pending}>
      {label}
    </Button>
  );
  const buttons = {
    book: () => act('Book', () => void update.run(APPOINTMENT_TOASTS.booked, bookedAppointment), 'contained'),
    decline: () => act('Decline', () => setDialog('decline')),
    checkIn: () =>
      act('Check in', () => void update.run(APPOINTMENT_TOASTS.checkedIn, checkedInAppointment), 'contained'),
    cancel: () => act('Cancel appointment', () => setDialog('cancel')),
    fulfil: () =>
      act('Mark fulfilled', () => void update.run(APPOINTMENT_TOASTS.fulfilled, fulfilledAppointment), 'contained'),
    noShow: () => act('No-show', () => void update.run(APPOINTMENT_TOASTS.noShow, noShowAppointment)),
  };

  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby="appointment-actions-heading"
      sx={{ p: 2, mb: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography id="appointment-actions-heading" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Appointment
        </Typography>
        <AppointmentStatusChip status={appointment.status} />
        {slot && (
          <Typography variant="body2" color="text.secondary">
            {slot}
          </Typography>
        )}
      </Stack>
      {reason && (
        <Typography variant="body2">
          <Box component="span" sx={{ fontWeight: 600 }}>
            Reason:
          </Box>{' '}
          {reason}
        </Typography>
      )}
      {mayUpdate && plan.bookBlocked && (
        <Alert severity="info">
          {BLOCKED_TEXT[plan.bookBlocked]}{' '}
          <Link component={RouterLink} to={editPath}>
            Edit tab
          </Link>
          , then book it.
        </Alert>
      )}
      {mayUpdate && plan.actions.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }} aria-label="Appointment actions">
          {plan.actions.map((action) => buttons[action]())}
        </Stack>
      )}

      <AppointmentActionDialog
        title="Decline this request?"
        open={dialog === 'decline' && mayUpdate && plan.actions.includes('decline')}
        onClose={close}
        ready
        submitLabel="Decline"
        closeLabel="Back"
        onSubmit={async () => {
          const saved = await update.run(APPOINTMENT_TOASTS.declined, (current) =>
            declinedAppointment(current, declineText),
          );
          if (saved) setDeclineText('');
          return saved;
        }}
      >
        <Typography variant="body2" sx={{ mb: 2 }}>
          The request is cancelled as &ldquo;Declined by the clinic&rdquo;.
        </Typography>
        <TextField
          label="Reason (optional)"
          value={declineText}
          onChange={(event) => setDeclineText(event.target.value)}
          multiline
          minRows={2}
          autoFocus
          fullWidth
        />
      </AppointmentActionDialog>

      <AppointmentActionDialog
        title="Cancel this appointment?"
        open={dialog === 'cancel' && mayUpdate && plan.actions.includes('cancel')}
        onClose={close}
        ready={cancelText.trim().length > 0}
        submitLabel="Cancel appointment"
        closeLabel="Keep appointment"
        onSubmit={async () => {
          const saved = await update.run(APPOINTMENT_TOASTS.cancelled, (current) =>
            cancelledAppointment(current, cancelText),
          );
          if (saved) setCancelText('');
          return saved;
        }}
      >
        <TextField
          label="Reason"
          value={cancelText}
          onChange={(event) => setCancelText(event.target.value)}
          required
          multiline
          minRows={2}
          autoFocus
          fullWidth
        />
      </AppointmentActionDialog>
    </Paper>
  );
}
