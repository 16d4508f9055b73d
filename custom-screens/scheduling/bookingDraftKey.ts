/**
 * The half-entered appointment is kept in the tab's session storage per account (`{prefix}{profile}|`),
 * as the onboarding draft is: whoever signs in next in this tab does not find it, and sign-out can
 * remove it with the account's other drafts by this prefix.
 */
export const BOOKING_DRAFT_KEY_PREFIX = 'hearth.bookingDraft.';

export function bookingDraftKey(account: string | undefined): string | undefined {
  return account ? `${BOOKING_DRAFT_KEY_PREFIX}${account}|` : undefined;
}
