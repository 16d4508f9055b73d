import type { Bundle } from '@medplum/fhirtypes';
import { nameOfResource } from '../../data-provider/formatting';
import { MAX_DURATION_MINUTES } from './bookingDraft';
import { isoWithOffset, type BookingSlot } from './bookingSlot';
import { SLOT_HOLDING_STATUSES } from './appointmentClashes';

/**
 * The search for `actor`'s appointments that could clash with `slot`. Appointment's `date` is its
 * start, so one that began before the slot and runs into it starts at most the longest appointment
 * earlier: that is the window; findClashes then checks the overlap exactly.
 */
export function clashSearch(actor: string, slot: BookingSlot): Record<string, string | string[]> {
  const earliest = new Date(slot.start.getTime() - MAX_DURATION_MINUTES * 60_000);
  return {
    actor,
    date: [`ge${isoWithOffset(earliest)}`, `lt${isoWithOffset(slot.end)}`],
    status: SLOT_HOLDING_STATUSES.join(','),
    // Imported appointments name their participants without a display: bring the names along.
    _include: 'Appointment:actor',
    _count: '100',
  };
}

/** `Type/id` → name of the resources a search `_include`d, for the warning's wording. */
export function includedNames(bundle: Bundle | undefined): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of bundle?.entry ?? []) {
    const resource = entry.resource;
    if (entry.search?.mode !== 'include' || !resource?.id) continue;
    const name = nameOfResource(resource);
    if (name) names.set(`${resource.resourceType}/${resource.id}`, name);
  }
  return names;
}
