import { tokenLifetimeSeconds } from '../../data-provider/rules';
import { refreshTokenSeconds, sessionSecondsWithoutRemember } from './authEnvironment';

export interface RefreshTokenClock {
  /** When the person signed in (loginService's sessionStartOf: a continued sign-in counts from its session's start). */
  authTime: string;
  /** When this refresh token was issued: the Login is saved with each new refresh secret. */
  issuedAt?: string;
  /** Whether "Remember me" was ticked at sign-in. */
  remembered: boolean;
  /** The client's ClientApplication.refreshTokenLifetime, when it has one. */
  clientLifetime?: string;
}

/**
 * When the refresh tokens of a sign-in stop being accepted (ms since 1970): the end of its session.
 * The sign-in's own limit always holds: 1 day, or 14 days with "Remember me". A client's
 * `refreshTokenLifetime` (Medplum's meaning: each refresh token lasts that long after it was issued,
 * and every refresh issues a new one) can end a session left unused sooner, never keep one past the
 * limit the person chose at sign-in: an app's settings, written by a project admin, do not lengthen
 * its users' sessions. A lifetime that cannot be read (saved before the write check) is ignored.
 * Connections that outlive a request (realtime sockets) end here too.
 */
export function refreshTokenEnd(clock: RefreshTokenClock): number {
  const sessionSeconds = clock.remembered ? refreshTokenSeconds : sessionSecondsWithoutRemember;
  const sessionEnd = Date.parse(clock.authTime) + sessionSeconds * 1000;
  const perToken = clock.clientLifetime ? tokenLifetimeSeconds(clock.clientLifetime) : undefined;
  const tokenEnd = perToken === undefined ? NaN : Date.parse(clock.issuedAt ?? clock.authTime) + perToken * 1000;
  // A time that cannot be read limits nothing, as before this was a function of its own.
  const ends = [sessionEnd, tokenEnd].filter(Number.isFinite);
  return ends.length > 0 ? Math.min(...ends) : Infinity;
}

/** Whether a refresh token may no longer be used (past `refreshTokenEnd`). */
export function refreshTokenExpired(clock: RefreshTokenClock, now: number): boolean {
  return now > refreshTokenEnd(clock);
}
