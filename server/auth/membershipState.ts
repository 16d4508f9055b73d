import type { Extension, ProjectMembership, Reference } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import { awaitingAddressOwnerUrl, awaitsAddressOwner } from '../../data-provider/rules/membershipAwaitingOwner';

/**
 * A membership that waits for the owner of its e-mail address (account pre-hijacking).
 *
 * An invitation that reuses an account whose address nobody has proved (made by an open
 * self-registration, or by an inviter who chose its password) must not give the new project to
 * whoever knows that account's password: it may be someone who registered another person's address
 * in advance. Such a membership is stored with `active: false` — which every check that turns a
 * membership into access already refuses (sign-in, `/auth/profile`, tokens and their refresh,
 * every call, introspection, the launch patient picker, websocket notifications, bots) — and with
 * this extension, which says why and keeps it so: no admin's edit may switch it on
 * (membershipChange.ts, accessGuard.ts), and `membershipUsable` refuses it even if `active` were set.
 * It becomes usable when the address owner completes a set-password or reset link e-mailed to the
 * address (addressOwnership.ts), which also replaces the password and ends the account's sessions.
 */

export const awaitingOwnerMessage =
  'This invitation waits for the address owner to choose a password from the e-mail sent to them';

/** The extension of a waiting membership: the security request e-mailed (if any), and `active` once the owner is known. */
export function awaitingOwnerExtension(request: Reference | undefined, activate: boolean): Extension {
  return {
    url: awaitingAddressOwnerUrl,
    extension: [
      ...(request ? [{ url: 'request', valueReference: request }] : []),
      { url: 'activate', valueBoolean: activate },
    ],
  };
}

export { awaitsAddressOwner };

/** Whether the membership may be signed in to, or used by a token: active, and not waiting for the address owner. */
export function membershipUsable(membership: ProjectMembership | undefined): membership is ProjectMembership {
  return !!membership && membership.active !== false && !awaitsAddressOwner(membership);
}

/** The membership once its address owner is known: the extension removed, active unless the inviter made it inactive. */
export function ownerConfirmed(membership: ProjectMembership): ProjectMembership {
  const waiting = (membership.extension ?? []).find((extension) => extension.url === awaitingAddressOwnerUrl);
  const activate = waiting?.extension?.find((part) => part.url === 'activate')?.valueBoolean !== false;
  const extension = (membership.extension ?? []).filter((entry) => entry.url !== awaitingAddressOwnerUrl);
  const next: ProjectMembership = { ...membership, active: activate };
  if (extension.length > 0) next.extension = extension;
  else delete next.extension;
  return next;
}

/** The waiting-for-the-owner extensions of a membership, as JSON (to compare a write with what is stored). */
export function awaitingOwnerJson(membership: ProjectMembership | undefined): string {
  return JSON.stringify((membership?.extension ?? []).filter((extension) => extension.url === awaitingAddressOwnerUrl));
}

/**
 * 403 unless a write by someone other than the server (an admin's member edit, a FHIR write) leaves
 * the waiting state as stored: the extension can be neither added nor removed, and a waiting
 * membership stays inactive. `path` names the field for the answer.
 */
export function checkAwaitingOwnerKept(
  incoming: ProjectMembership,
  stored: ProjectMembership | undefined,
  path = 'ProjectMembership',
): void {
  if (awaitingOwnerJson(incoming) !== awaitingOwnerJson(stored)) {
    throw errors.forbiddenIssues([
      {
        severity: 'error',
        code: 'forbidden',
        details: { text: `Forbidden: only the server sets or clears ${awaitingAddressOwnerUrl}` },
        expression: [`${path}.extension`],
      },
    ]);
  }
  if (stored && awaitsAddressOwner(stored) && incoming.active !== false) {
    throw errors.forbiddenIssues([
      {
        severity: 'error',
        code: 'forbidden',
        details: { text: `${awaitingOwnerMessage}; the membership becomes active then` },
        expression: [`${path}.active`],
      },
    ]);
  }
}
