import type { ProjectMembership, Reference } from '@medplum/fhirtypes';

/** Unread messages to the user: Communications addressed to them that are not completed. */
export function unreadMailQuery(profile: Reference | undefined): string | undefined {
  return profile?.reference ? `recipient=${profile.reference}&status:not=completed` : undefined;
}

/**
 * Where the Mail icon goes: the unread messages, newest first, with who sent them, about whom and
 * what they say (the list's default columns for Communication had no message text at all).
 */
export function unreadMailListPath(profile: Reference | undefined): string {
  const query = unreadMailQuery(profile);
  return `/Communication?${query ? `${query}&` : ''}_fields=sender,subject,payload,sent&_sort=-sent`;
}

/** The user's open work: Tasks they own that are not completed. */
export function openTasksQuery(profile: Reference | undefined): string | undefined {
  return profile?.reference ? `owner=${profile.reference}&status:not=completed` : undefined;
}

/** E-prescribing is on when the membership carries an identifier whose system mentions DoseSpot (app-spec §6). */
export function isEPrescribingEnabled(membership: ProjectMembership | undefined): boolean {
  return (membership?.identifier ?? []).some((identifier) => identifier.system?.toLowerCase().includes('dosespot'));
}
