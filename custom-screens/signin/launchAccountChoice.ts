import type { LaunchAvailability } from '../../data-provider/client';

/** Why an account signed in in this browser is not offered for an app's EHR launch. */
export type NotOfferedReason = 'startedBySomeoneElse' | 'unknown';

/**
 * Why no account is offered at all: the launch has expired or was used (nobody can continue into
 * it), no account here knows it (`unknown`: another project's, or none), or it was started by an
 * account that is not signed in here (`startedElsewhere`).
 */
export type LaunchProblem = 'expired' | 'used' | 'unknown' | 'startedElsewhere';

export interface LaunchAccountChoice<A> {
  /** The accounts that can continue into the launch, in the order given. */
  offered: A[];
  /** The others, and why each is left out (said on the page, so nobody wonders where they went). */
  notOffered: { account: A; reason: NotOfferedReason }[];
  /** Set when nothing is offered: what the page says instead of the list. */
  problem?: LaunchProblem;
}

/**
 * What the `/oauth` account chooser offers for an app opened with an EHR launch, from the server's
 * answer for each account (`launch`; none is read as `unknown`). Only the account that started the
 * launch can continue into it, so the others are not offered. When none can, the launch's own state
 * decides what is said: expired or used comes from the launcher's answer (the server tells only the
 * launcher), and those are said first because no sign-in helps then.
 */
export function launchAccountChoice<A extends { launch?: LaunchAvailability }>(accounts: A[]): LaunchAccountChoice<A> {
  const offered = accounts.filter((account) => account.launch?.usable === true);
  const reasons = accounts.map((account) => (account.launch?.usable === false ? account.launch.reason : 'unknown'));
  const notOffered = accounts.flatMap((account, index) => {
    const reason = reasons[index];
    return account.launch?.usable !== true && (reason === 'startedBySomeoneElse' || reason === 'unknown')
      ? [{ account, reason }]
      : [];
  });
  if (offered.length > 0 || accounts.length === 0) return { offered, notOffered };
  const problem: LaunchProblem = reasons.includes('expired')
    ? 'expired'
    : reasons.includes('used')
      ? 'used'
      : reasons.every((reason) => reason === 'unknown')
        ? 'unknown'
        : 'startedElsewhere';
  return { offered, notOffered, problem };
}
