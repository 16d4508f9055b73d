/**
 * A ProjectMembership that waits for the owner of its e-mail address: an invitation reused an
 * account whose address nobody has proved, so whoever knows its password must not get the project
 * before the address owner completes the e-mailed link (server/auth/membershipState.ts). Shared so
 * the administration screen can say why the member cannot sign in yet.
 */
export const awaitingAddressOwnerUrl =
  'https://hearth-emr.org/fhir/StructureDefinition/membership-awaiting-address-owner';

export function awaitsAddressOwner(membership: { extension?: readonly { url?: string }[] }): boolean {
  return (membership.extension ?? []).some((extension) => extension.url === awaitingAddressOwnerUrl);
}

/** What the administrator is told about such a member (the Members table, the member dialog). */
export const awaitingAddressOwnerText =
  'Waits for the owner of the address to choose a password from the invitation e-mail (or "Forgot password"); only then can they sign in.';
