/** What the last-admin rule needs to know of a membership. */
export interface AdminSeat {
  id: string;
  admin: boolean;
  active: boolean;
  /** `User/…` for people; Bots and ClientApplications cannot sign in to administer anything. */
  user?: string;
}

/** The seat a ProjectMembership holds (only the fields the rule reads, so any membership shape fits). */
export function adminSeatOf(membership: {
  id?: string;
  admin?: boolean;
  active?: boolean;
  user?: { reference?: string };
}): AdminSeat {
  return {
    id: membership.id ?? '',
    admin: membership.admin === true,
    active: membership.active !== false,
    user: membership.user?.reference,
  };
}

/** A membership held by a person who can still sign in and administer the project. */
function isPersonAdmin(seat: AdminSeat): boolean {
  return seat.admin && seat.active && (seat.user?.startsWith('User/') ?? false);
}

/**
 * Would this change leave the project with no person to administer it? `next` is the membership
 * after the change, or `'removed'`. A project without an admin can only be repaired by a super
 * admin, so a project admin may demote, deactivate or remove any admin but the last one.
 */
export function removesLastAdmin(
  seats: readonly AdminSeat[],
  membershipId: string,
  next: AdminSeat | 'removed',
): boolean {
  const current = seats.find((seat) => seat.id === membershipId);
  if (!current || !isPersonAdmin(current)) return false;
  if (next !== 'removed' && isPersonAdmin(next)) return false;
  return !seats.some((seat) => seat.id !== membershipId && isPersonAdmin(seat));
}

export const lastAdminMessage = 'The project must keep at least one active admin who can sign in';
