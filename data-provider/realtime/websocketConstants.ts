/** Websocket constants of spec §9, shared by the subscription client and the server's socket. */

/** Path of the subscription socket below the server's base URL. */
export const SUBSCRIPTIONS_WEBSOCKET_PATH = '/ws/subscriptions-r4';

/** A ping goes out this often, so proxies see traffic and a dead connection is noticed. */
export const PING_INTERVAL_MS = 5000;

/** Each further reconnect attempt waits this factor longer than the one before. */
export const RECONNECT_DELAY_GROWTH = 1.3;

/**
 * The first reconnect waits a random time between these two bounds, so that clients dropped by
 * one server restart do not all come back in the same instant.
 */
export const MIN_RECONNECT_DELAY_LOWER_MS = 1000;
export const MIN_RECONNECT_DELAY_UPPER_MS = 5000;

/** No reconnect waits longer than this. */
export const MAX_RECONNECT_DELAY_MS = 10000;

/** A socket that has not opened within this time is given up and retried. */
export const CONNECTION_TIMEOUT_MS = 4000;

/**
 * A connection must stay open this long before the backoff starts again from its minimum; a
 * server that accepts and at once drops connections would otherwise be hammered.
 */
export const MIN_UPTIME_MS = 5000;

/**
 * The last listener of a criteria going away unbinds only after this delay, so a screen that
 * unmounts and mounts again (a route change, React's strict mode) keeps its subscription.
 */
export const UNSUBSCRIBE_DELAY_MS = 3000;
