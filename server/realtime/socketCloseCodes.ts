/**
 * Close codes of the realtime sockets (`/ws/subscriptions-r4`, `/ws/fhircast/{id}`); 4000–4999
 * are the application's own (RFC 6455 §7.4.2), numbered after the HTTP status they resemble.
 */

/** The sign-in behind the socket ended: signed out, membership switched off, or its session's time is up. */
export const signInEndedCode = 4401;
/** A subscription socket stayed open without a binding for longer than the idle limit. */
export const unboundIdleCode = 4408;
/** A FHIRcast subscription's endpoint that does not exist (unsubscribed, past its lease, never made). */
export const noSuchEndpointCode = 4404;
/** A FHIRcast subscription's lease ran out. */
export const leaseEndedCode = 4410;
/** The client broke a limit of the socket (commands sent without waiting for answers). */
export const policyViolationCode = 1008;
