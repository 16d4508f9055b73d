// Public surface of custom-screens/scheduling (app-spec §2.5 Scheduling > New Appointment).
export { AppointmentBookingPage } from './AppointmentBookingPage';
// For the sign-out listener, which forgets each account's drafts by their key prefix.
export { BOOKING_DRAFT_KEY_PREFIX } from './bookingDraftKey';
// Above an Appointment's details (src/resources/ResourceDetails.tsx): book, decline, cancel, check in, close.
export { AppointmentActions } from './AppointmentActions';
// Today's checked-in patients (on the New Appointment page; exported for a screen of its own).
export { HereTodaySection } from './HereTodaySection';
