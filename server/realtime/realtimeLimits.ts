/**
 * What one project, login or socket may hold of the realtime machinery. Each counts something kept
 * for as long as its holder wants (a row every write is judged against, a socket and its bindings
 * in one process's memory), so without a bound one member could make every write and every
 * process slower for the whole server.
 */
export interface RealtimeLimits {
  /**
   * Active websocket and rest-hook Subscriptions a project may store. Every one is a question asked
   * of each write of its type; the web app needs one per open screen that listens (a few per user),
   * so 1,000 serves a clinic of a few hundred concurrent users several times over.
   */
  maxActiveSubscriptionsPerProject: number;
  /**
   * Subscriptions bound on one socket. The web app binds one per criteria it listens to (a chart
   * listens to fewer than ten); a socket's heartbeat sends one Bundle per binding.
   */
  maxBindingsPerSocket: number;
  /**
   * Sockets with bindings of one login on one process: a person's tabs and apps of one sign-in
   * (each tab of the web app opens one socket).
   */
  maxSocketsPerLogin: number;
  /**
   * Commands of one socket received and not yet answered. The web app sends one bind per
   * subscription right after reconnecting, so this is above `maxBindingsPerSocket`; past it the
   * socket is closed (1008), so that a client that sends without waiting cannot queue without end.
   */
  maxPendingCommandsPerSocket: number;
  /**
   * Bytes queued for a socket that its client has not taken. A client that stops reading while
   * notifications keep coming would otherwise grow the server's memory without bound; past this
   * the socket is ended (its client reconnects and binds again when it reads once more).
   */
  maxBufferedBytesPerSocket: number;
  /**
   * How long a socket may stay open without a binding: from its opening, and again from the end of
   * its last binding (an unbind, a deleted Subscription). A socket has no login until it binds, so
   * until then nothing else bounds it; past this it is closed (4408). The web app binds as soon as a
   * socket opens, and after a reconnect once it has fetched fresh tokens (one request each): seconds
   * at most, so a minute leaves room for a slow network without keeping idle sockets long.
   */
  unboundSocketIdleMs: number;
  /**
   * Sockets open on one process without a binding (each ~12 KB of the process's memory at rest).
   * Past it a new connection is refused at the upgrade (503, Retry-After), so that a flood of
   * connections nobody signed in for cannot exhaust the process; bound sockets are not counted
   * (`maxSocketsPerLogin` bounds those) and keep working.
   */
  maxUnboundSockets: number;
}

export const defaultRealtimeLimits: RealtimeLimits = {
  maxActiveSubscriptionsPerProject: 1_000,
  maxBindingsPerSocket: 100,
  maxSocketsPerLogin: 20,
  maxPendingCommandsPerSocket: 256,
  maxBufferedBytesPerSocket: 8 * 1024 * 1024,
  unboundSocketIdleMs: 60_000,
  maxUnboundSockets: 10_000,
};

/** Largest message a client may send on `/ws/subscriptions-r4`: commands carry one token (~1 KB). */
export const maxCommandBytes = 16 * 1024;

/** Longest binding token accepted: a queued command keeps nothing larger. */
export const maxTokenLength = 4 * 1024;
