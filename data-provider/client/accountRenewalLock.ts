import type { LoginState } from './authTypes';
import { sameAccount, type LoginStore } from './loginStore';

/** The part of the Web Locks API used here (`navigator.locks`). */
interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** Renewals waiting in this JavaScript realm, by lock name, where the browser has no Web Locks. */
const localQueues = new Map<string, Promise<unknown>>();

function lockName(login: LoginState): string {
  const account =
    login.profile?.reference && login.project?.reference
      ? `${login.project.reference}|${login.profile.reference}`
      : (login.refreshToken ?? login.accessToken);
  return `hearth.renew-login:${account}`;
}

function webLocks(): LockManagerLike | undefined {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return typeof nav?.locks?.request === 'function' ? nav.locks : undefined;
}

/**
 * Runs `renew` for one account while no other renewal of that account runs in this browser: the
 * tabs of the web app share the stored logins, and a refresh token is good for one renewal — the
 * server ends the session of whoever presents a spent one (RFC 6819 §5.2.2.3), so two tabs renewing
 * the same tokens at once would sign both out. Across tabs through the Web Locks API where the
 * browser has it; within this realm (other clients of the same page, tests, older browsers) by a
 * queue. `renew` must read the stored login again first (`renewedInStorage`): the tab that held the
 * lock before may have renewed it already.
 */
export function withAccountRenewalLock<T>(login: LoginState, renew: () => Promise<T>): Promise<T> {
  const name = lockName(login);
  const locks = webLocks();
  if (locks) return locks.request(name, renew);
  const previous = localQueues.get(name) ?? Promise.resolve();
  const run = previous.then(renew, renew);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  localQueues.set(name, settled);
  void settled.then(() => {
    if (localQueues.get(name) === settled) localQueues.delete(name);
  });
  return run;
}

/**
 * The account's login as stored now when it holds other tokens than `login` (renewed by another
 * tab or client since `login` was read); undefined when it does not.
 */
export function renewedInStorage(logins: LoginStore, login: LoginState): LoginState | undefined {
  const stored = logins.getLogins().find((candidate) => sameAccount(candidate, login));
  if (!stored || stored.accessToken === login.accessToken) return undefined;
  return stored;
}
