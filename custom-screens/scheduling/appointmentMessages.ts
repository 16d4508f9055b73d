/** The appointment actions' toasts and conflict message. */
export const APPOINTMENT_TOASTS = {
  booked: 'Appointment booked',
  declined: 'Appointment declined',
  cancelled: 'Appointment cancelled',
  checkedIn: 'Checked in',
  fulfilled: 'Marked fulfilled',
  noShow: 'Marked no-show',
} as const;

/** The appointment changed on the server since it was loaded (the PUT's If-Match failed: 412). */
export const APPOINTMENT_CONFLICT_MESSAGE = 'Another user modified the appointment.';
