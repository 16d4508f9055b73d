import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  List,
  ListItem,
  Typography,
} from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import InfoIcon from '@mui/icons-material/Info';
import type { Appointment } from '@medplum/fhirtypes';
import type { VitalStatus } from '../../../data-provider/rules';
import { StatusBadge } from '../../../src/datatypes/StatusBadge';
import { appointmentTitle, appointmentWhen } from './appointmentLabels';
import { PATIENT_DECEASED_CANCELLATION_REASON } from './cancelledForDeath';
import { countOf } from './stillOpenWords';
import {
  useAppointmentCancellation,
  type CancellationState,
  type CancellationTally,
} from './useAppointmentCancellation';

export interface CancelAppointmentsDialogProps {
  open: boolean;
  /** The appointments to cancel, as listed when the dialog was opened (the list it keeps showing). */
  appointments: readonly Appointment[];
  patient: VitalStatus;
  /** Closed without finishing: what was cancelled stays cancelled. */
  onClose(): void;
  /** Every listed appointment is cancelled, or was found closed (or moved) by someone else on a retry. */
  onDone(tally: CancellationTally): void;
}

/** A row's outcome, in words and an icon (never colour alone). */
function RowOutcome({ state }: { state: CancellationState }) {
  if (state.kind === 'waiting') return null;
  if (state.kind === 'working') {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
        <CircularProgress size={14} aria-hidden />
        <Typography variant="body2">Cancelling…</Typography>
      </Box>
    );
  }
  const { Icon, color, text } =
    state.kind === 'cancelled'
      ? { Icon: CheckCircleIcon, color: 'success.main', text: 'Cancelled' }
      : state.kind === 'failed'
        ? { Icon: ErrorIcon, color: 'error.main', text: `Not cancelled: ${state.message}` }
        : { Icon: InfoIcon, color: 'text.secondary', text: state.message };
  return (
    <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.75 }}>
      <Icon fontSize="small" aria-hidden sx={{ color, mt: '1px' }} />
      <Box>
        <Typography variant="body2" sx={{ color: state.kind === 'cancelled' ? 'text.primary' : color }}>
          {text}
        </Typography>
        {state.kind === 'failed' && state.detail && (
          <Typography variant="caption" component="p" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
            {state.detail}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

/**
 * Confirms cancelling a deceased patient's open appointments, lists them, and cancels them. Those
 * that fail stay listed with the server's reason and the dialog stays open; the button then tries
 * only those again. Mounted anew for each opening (the notice keys it), so it lists what is open then.
 */
export function CancelAppointmentsDialog(props: CancelAppointmentsDialogProps) {
  const cancellation = useAppointmentCancellation(props.appointments, props.patient);
  const { rows, running, pending } = cancellation;
  const failed = rows.filter((row) => row.state.kind === 'failed').length;
  const tried = rows.some((row) => row.state.kind !== 'waiting');
  const run = async () => {
    const result = await cancellation.run();
    if (result.pending === 0) props.onDone(result);
  };
  const close = () => {
    if (!running) props.onClose();
  };
  const action = running
    ? 'Cancelling…'
    : tried
      ? `Try again (${pending})`
      : `Cancel ${countOf(rows.length, 'appointment', 'appointments')}`;
  return (
    <Dialog open={props.open} onClose={close} aria-labelledby="cancel-appointments-title" fullWidth maxWidth="sm">
      <DialogTitle id="cancel-appointments-title">
        Cancel {countOf(rows.length, 'appointment', 'appointments')}?
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1.5 }}>
          {rows.length === 1 ? 'It' : 'Each'} will be cancelled with the reason “
          {PATIENT_DECEASED_CANCELLATION_REASON.text}”. Nothing else in {rows.length === 1 ? 'it' : 'them'} changes.
        </DialogContentText>
        {failed > 0 && !running && (
          <Alert severity="error" sx={{ mb: 1.5 }}>
            {`${failed} of ${countOf(rows.length, 'appointment', 'appointments')} could not be cancelled.`}
            {rows.length - failed === 1 && ' The other one is cancelled.'}
            {rows.length - failed > 1 && ' The others are cancelled.'}
          </Alert>
        )}
        <List dense disablePadding aria-label="Appointments to cancel">
          {rows.map(({ appointment, state }) => (
            <ListItem key={appointment.id} divider disableGutters sx={{ display: 'block', py: 1 }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Typography variant="body2" component="span" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {appointmentWhen(appointment)}
                </Typography>
                <Typography variant="body2" component="span" sx={{ flex: 1, minWidth: 120 }}>
                  {appointmentTitle(appointment)}
                </Typography>
                <StatusBadge status={state.kind === 'cancelled' ? 'cancelled' : appointment.status} />
              </Box>
              <RowOutcome state={state} />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={running}>
          {tried ? 'Close' : 'Go back'}
        </Button>
        <Button variant="contained" onClick={() => void run()} disabled={running || pending === 0}>
          {action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
