/**
 * The half-typed new patient is kept in the tab's session storage per account (`{prefix}{profile}|`),
 * so that whoever signs in next in this tab does not find it, and sign-out removes it with the
 * account's other drafts. Its own module: the sign-out listener in the app shell needs the prefix
 * without pulling the onboarding page into the main chunk.
 */
export const ONBOARDING_DRAFT_KEY_PREFIX = 'hearth.onboardingDraft.';

export function onboardingDraftKey(account: string | undefined): string | undefined {
  return account ? `${ONBOARDING_DRAFT_KEY_PREFIX}${account}|` : undefined;
}
