import { useState } from 'react';
import { Alert, AlertTitle, Box, Button, Typography } from '@mui/material';
import type { Patient } from '@medplum/fhirtypes';
import { isDeceased } from '../../../data-provider/rules';
import { canPerformOnType } from '../../../src/resources/accessRules';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { useToast } from '../../../src/shell/toasts';
import { chartPath } from '../chartPaths';
import { summaryQueryKey } from '../summary/summaryQueries';
import { SummaryLink } from '../summary/SummaryLink';
import { useRecountOnWrite } from '../useRecountOnWrite';
import { CancelAppointmentsDialog } from './CancelAppointmentsDialog';
import { deathLine } from './deathLine';
import { countOf, stillOpenWords, type OpenCount } from './stillOpenWords';
import type { CancellationTally } from './useAppointmentCancellation';
import { appointmentsLeftOpenKey, useAppointmentsLeftOpen } from './useAppointmentsLeftOpen';
import { useOpenTaskCount } from './useOpenTaskCount';

/** The toast after the last appointment is dealt with: how many were cancelled, and any someone else closed first. */
function doneMessage({ cancelled, leftAsItIs }: CancellationTally): string {
  const done = `${countOf(cancelled, 'appointment', 'appointments')} cancelled`;
  return leftAsItIs > 0 ? `${done}; ${leftAsItIs} left as changed by someone else` : done;
}

/** A link inside the notice: in the notice's own colour, underlined so that it reads as a link there. */
function NoticeLink({ href, children }: { href: string; children: string }) {
  return (
    <SummaryLink href={href} color="inherit" underline="always" sx={{ fontWeight: 600 }}>
      {children}
    </SummaryLink>
  );
}

function DeceasedPatientNotice({ patient }: { patient: Patient }) {
  const patientId = patient.id ?? '';
  const client = useFhirClient();
  const toast = useToast();
  const appointments = useAppointmentsLeftOpen(patient);
  // An appointment cancelled here, or edited in the Appointments tab, counts again at once: in this
  // notice, the header's upcoming appointments and the Appointments tab's list (the console's searches).
  useRecountOnWrite('Appointment', [
    appointmentsLeftOpenKey(patientId),
    summaryQueryKey(patientId, 'appointments'),
    ['hearth-search', 'Appointment'],
  ]);
  const tasks = useOpenTaskCount(patientId);
  const [dialog, setDialog] = useState<{ opening: number; open: boolean }>({ opening: 0, open: false });

  const appointmentCount: OpenCount | undefined =
    appointments && !appointments.loading && !appointments.error
      ? { count: appointments.items.length, capped: appointments.capped }
      : undefined;
  const loading = Boolean(appointments?.loading || tasks.loading);
  const words = loading ? undefined : stillOpenWords(appointmentCount, tasks.count);
  const canCancel = canPerformOnType(client.getAccessPolicy(), client.isSuperAdmin(), 'Appointment', 'update');
  const toCancel = appointments?.items ?? [];

  return (
    <Alert
      // Seen on every opening of the chart: announced politely, not as an alarm.
      role="status"
      severity={words ? 'warning' : 'info'}
      data-deceased-notice
      sx={{ mx: { xs: 1, sm: 2 }, mt: { xs: 1, sm: 1.5 }, mb: { xs: 1, sm: 1.5 } }}
    >
      <AlertTitle sx={{ mb: words || appointments?.error ? 0.5 : 0 }}>{deathLine(patient)}</AlertTitle>
      {words && (
        <Typography variant="body2">
          {words.appointments && (
            <NoticeLink href={chartPath(patientId, 'Appointment')}>{words.appointments}</NoticeLink>
          )}
          {words.appointments && words.tasks && ' and '}
          {words.tasks && <NoticeLink href={chartPath(patientId, 'Task')}>{words.tasks}</NoticeLink>}
          {` ${words.verb} still open.`}
        </Typography>
      )}
      {appointments?.error && (
        <Typography variant="body2">Could not check for open appointments: {appointments.error.message}</Typography>
      )}
      {canCancel && toCancel.length > 0 && !loading && (
        <Box sx={{ mt: 1 }}>
          <Button
            size="small"
            variant="outlined"
            color="inherit"
            onClick={() => setDialog(({ opening }) => ({ opening: opening + 1, open: true }))}
          >
            Cancel {countOf(toCancel.length, 'appointment', 'appointments')}…
          </Button>
        </Box>
      )}
      {dialog.opening > 0 && (
        <CancelAppointmentsDialog
          // A new dialog for each opening: it lists what is open now, not what was open last time.
          key={dialog.opening}
          open={dialog.open}
          appointments={toCancel}
          patient={patient}
          onClose={() => setDialog((state) => ({ ...state, open: false }))}
          onDone={(tally) => {
            setDialog((state) => ({ ...state, open: false }));
            toast.success(doneMessage(tally));
          }}
        />
      )}
    </Alert>
  );
}

/**
 * At the top of a deceased patient's chart: when they died, and what is still open for them —
 * appointments that still expect them (cancelled here in one step, with the reason "Patient:
 * Deceased") and open tasks (linked, not closed: a task may be the death's own paperwork). Nothing
 * for a living patient; the chart leaves it out of a patient's own view.
 */
export function DeceasedNotice({ patient }: { patient: Patient }) {
  return isDeceased(patient) ? <DeceasedPatientNotice patient={patient} /> : null;
}
