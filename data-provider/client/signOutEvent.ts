/** Name of the event a FhirClient dispatches when an account signs out on this device. */
export const SIGN_OUT_EVENT = 'signOut';

/**
 * Announces that `profile` (`Practitioner/{id}`, …) signed out here on purpose — not a session
 * that merely ended. Lets what the app keeps in the browser for that account (drafts of patients'
 * answers and messages) be forgotten without the client knowing about it.
 */
export class SignOutEvent extends Event {
  constructor(readonly profile: string | undefined) {
    super(SIGN_OUT_EVENT);
  }
}
