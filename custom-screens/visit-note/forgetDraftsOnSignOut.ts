import { SIGN_OUT_EVENT, SignOutEvent, type FhirClient } from '../../data-provider/client';
import { CHAT_DRAFT_KEY_PREFIX } from '../chat/useMessageDraft';
import { ONBOARDING_DRAFT_KEY_PREFIX } from '../chart/onboarding/onboardingDraftKey';
import { ANSWER_BACKUP_KEY_PREFIX, isAccountKey } from './answerBackupRules';
import { removeMatchingKeys, sessionStore } from './answerBackupStore';
import { BOOKING_DRAFT_KEY_PREFIX } from '../scheduling/bookingDraftKey';

/** The browser drafts that belong to one account: unsaved questionnaire answers, unsent messages, a new patient, a booking. */
const ACCOUNT_DRAFT_PREFIXES = [
  ANSWER_BACKUP_KEY_PREFIX,
  CHAT_DRAFT_KEY_PREFIX,
  ONBOARDING_DRAFT_KEY_PREFIX,
  BOOKING_DRAFT_KEY_PREFIX,
];

/** Removes every draft `account` (`Practitioner/{id}`) left in this tab's session storage; other accounts' stay. */
export function forgetAccountDrafts(account: string, storage = sessionStore()): void {
  removeMatchingKeys((key) => isAccountKey(key, account, ACCOUNT_DRAFT_PREFIXES), storage);
}

/**
 * Signing out must not leave patients' answers behind in the browser: when `client` signs an
 * account out, that account's drafts go. A session that merely ended (expired, refused) keeps
 * them, so the same clinician finds them after signing in again; they still go with the tab.
 * Returns the unsubscribe.
 */
export function forgetDraftsOnSignOut(
  client: FhirClient,
  storage: () => Storage | undefined = sessionStore,
): () => void {
  const listener = (event: Event) => {
    if (event instanceof SignOutEvent && event.profile) forgetAccountDrafts(event.profile, storage());
  };
  client.addEventListener(SIGN_OUT_EVENT, listener);
  return () => client.removeEventListener(SIGN_OUT_EVENT, listener);
}
