import type { Appointment, AppointmentParticipant, Reference } from '@medplum/fhirtypes';
import { appointmentTypeConcept } from './appointmentTypes';
import type { BookingDraft } from './bookingDraft';
import { isoWithOffset, type BookingSlot } from './bookingSlot';

// The display travels with the reference: the lists show it without reading every participant.
const actorOf = (chosen: Reference | undefined): AppointmentParticipant['actor'] => ({
  reference: chosen?.reference,
  ...(chosen?.display ? { display: chosen.display } : {}),
});

/**
 * The one Appointment a valid draft books. The patient comes first among the participants and
 * the clinician second: the server's issues about `participant[0]` and `[1]` are mapped back by
 * that order. A request's clinician has yet to accept it (needs-action).
 */
export function draftToAppointment(draft: BookingDraft, slot: BookingSlot): Appointment {
  const type = appointmentTypeConcept(draft.appointmentType);
  const description = draft.description.trim();
  return {
    resourceType: 'Appointment',
    status: draft.kind,
    start: isoWithOffset(slot.start),
    end: isoWithOffset(slot.end),
    minutesDuration: slot.minutes,
    ...(type ? { appointmentType: type } : {}),
    ...(description ? { description } : {}),
    participant: [
      {
        actor: actorOf(draft.patient),
        required: 'required',
        status: 'accepted',
      },
      {
        actor: actorOf(draft.clinician),
        required: 'required',
        status: draft.kind === 'proposed' ? 'needs-action' : 'accepted',
      },
    ],
  };
}
