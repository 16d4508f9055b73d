/**
 * What the FHIRcast hub keeps for one caller. Every subscription is a row for its lease (24 h) and
 * is looked at for every event of its topic; every topic a row of context: without bounds one
 * member could fill the database by subscribing or publishing to new topic names, or make each
 * event fan out to thousands of sockets.
 */
export interface FhircastLimits {
  /**
   * Open subscriptions (not unsubscribed, within their lease) of one sign-in. The web app
   * subscribes once per page load and a closed tab keeps its lease, so this leaves a day of
   * reloads of one sign-in, and its launched apps, room.
   */
  maxSubscriptionsPerLogin: number;
  /** Open subscriptions of one topic (one person's: every sign-in and app of theirs together). */
  maxSubscriptionsPerTopic: number;
  /** Topics with a stored context one person may have at a time (they expire, see below). */
  maxTopicsPerOwner: number;
  /** Sockets open on one subscription's endpoint on one process; a newer socket replaces the oldest. */
  maxSocketsPerSubscription: number;
  /** Bytes queued for a socket its client has not taken; past it the socket is ended. */
  maxBufferedBytesPerSocket: number;
  /**
   * Events one person (a profile in a project: every sign-in and app of theirs together) may
   * publish per second, sustained. Each event is stored, announced to every process and sent to
   * every socket of its topic; a person's clicks make a few a second at most. Per person rather than
   * per sign-in, which anyone can multiply by signing in again; not per topic, of which a person may
   * have `maxTopicsPerOwner`. Counted by each process (with N processes behind a balancer, N times this).
   */
  eventsPerSecondPerPerson: number;
  /**
   * Events one person may publish at once after a pause (the bucket's size): an app opening a
   * patient may send several in a row.
   */
  eventBurstPerPerson: number;
}

export const defaultFhircastLimits: FhircastLimits = {
  maxSubscriptionsPerLogin: 100,
  maxSubscriptionsPerTopic: 200,
  maxTopicsPerOwner: 100,
  maxSocketsPerSubscription: 2,
  maxBufferedBytesPerSocket: 8 * 1024 * 1024,
  eventsPerSecondPerPerson: 20,
  eventBurstPerPerson: 50,
};

/**
 * A topic no one is subscribed to and whose context has not changed for this long is removed (the
 * hub's sweep): its context is of no use to anyone, and the next event starts it again.
 */
export const idleTopicSeconds = 24 * 60 * 60;

/** Clients send nothing on a FHIRcast socket; a message above this closes it (1009). */
export const maxFhircastMessageBytes = 4 * 1024;
