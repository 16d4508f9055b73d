import type { Appointment } from '@medplum/fhirtypes';
import { StatusBadge } from '../../src/datatypes/StatusBadge';
import { statusChip } from './appointmentActionRules';

/** The appointment's status as a word on the colour the app gives that status (the Status badge's). */
export function AppointmentStatusChip({ status }: { status: Appointment['status'] }) {
  return <StatusBadge status={status} label={statusChip(status).label} testId="appointment-status" />;
}
