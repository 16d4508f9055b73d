import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { BookingDraft, BookingErrors, BookingField } from './bookingDraft';

/**
 * A server issue's element path → the field it belongs under. The Appointment is built with the
 * patient as `participant[0]` and the clinician as `participant[1]` (see draftToAppointment); the
 * end is under whichever of end time and duration the desk used.
 */
export function fieldOfIssuePath(path: string, draft: BookingDraft): BookingField | undefined {
  const clean = path.replace(/^Appointment\./, '');
  if (/^participant\[1\]/.test(clean)) return 'clinician';
  if (clean.startsWith('participant')) return 'patient';
  if (clean.startsWith('start')) return 'startTime';
  if (clean.startsWith('end') || clean.startsWith('minutesDuration')) {
    return draft.endBy === 'endTime' ? 'endTime' : 'duration';
  }
  if (clean.startsWith('appointmentType')) return 'appointmentType';
  if (clean.startsWith('description')) return 'description';
  return undefined;
}

/** The server's issues: under their fields where their path says which, the rest for the form's alert. */
export function issuesByField(
  issues: readonly OperationOutcomeIssue[],
  draft: BookingDraft,
): { fields: BookingErrors; general: string[] } {
  const fields: BookingErrors = {};
  const general: string[] = [];
  for (const issue of issues) {
    const text = issue.details?.text ?? issue.diagnostics ?? issue.code;
    const field = fieldOfIssuePath(issue.expression?.[0] ?? '', draft);
    if (field && !fields[field]) fields[field] = text;
    else general.push(text);
  }
  return { fields, general };
}
