import type { FhircastCurrentContext, FhircastEventEnvelope } from '../../data-provider/fhircast';
import type { SqlExecutor } from '../storage/database';
import { emptyContext } from './fhircastContextState';
import { idleTopicSeconds } from './fhircastLimits';

/** A websocket subscription to a topic's events; its id is the last part of its endpoint URL. */
export interface FhircastSubscription {
  id: string;
  projectId: string;
  /** The topic's key (fhircastAccess.ts `topicKey`: its owner and the name the subscriber gave). */
  topic: string;
  events: string[];
  loginId: string;
  /** When its lease ends (ms since 1970): the socket is closed then, and cannot be opened again. */
  expires: number;
}

/** Seconds a subscription is granted, as told in the confirmation (ended sooner by unsubscribe or by closing). */
export const leaseSeconds = 24 * 60 * 60;

/** Events are kept this long, for the processes that deliver them to their own sockets. */
const eventRetention = '1 hour';

/**
 * The hub's state in the database (not in one process's memory), so that every server process on the
 * database sees the same topics, subscriptions and context. Topics belong to a project.
 */
export const fhircastStore = {
  async currentContext(db: SqlExecutor, projectId: string, topic: string): Promise<FhircastCurrentContext> {
    const rows = await db.query<{ state: FhircastCurrentContext }>(
      'SELECT state FROM fhircast_topics WHERE project_id = $1 AND topic = $2',
      [projectId, topic],
    );
    return rows[0]?.state ?? emptyContext;
  },

  /**
   * Locks the topic's row (creating it) for a read-modify-write of its context in `tx`. A new topic
   * is refused (undefined) when its owner (`ownerPrefix`, the start of the keys of their topics)
   * already has `maxTopics`: topic names are the caller's to choose, and each is a row.
   */
  async lockContext(
    tx: SqlExecutor,
    projectId: string,
    topic: string,
    owner: { prefix: string; maxTopics: number },
  ): Promise<FhircastCurrentContext | undefined> {
    const locked = async () =>
      (
        await tx.query<{ state: FhircastCurrentContext }>(
          'SELECT state FROM fhircast_topics WHERE project_id = $1 AND topic = $2 FOR UPDATE',
          [projectId, topic],
        )
      )[0]?.state;
    const existing = await locked();
    if (existing) return existing;
    // One owner's new topics one at a time, so that two cannot both take the last place.
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('fhircast-topics:' || $1 || $2))", [projectId, owner.prefix]);
    const counted = await tx.query<{ topics: number }>(
      'SELECT count(*)::integer AS topics FROM fhircast_topics WHERE project_id = $1 AND starts_with(topic, $2)',
      [projectId, owner.prefix],
    );
    if (Number(counted[0]?.topics ?? 0) >= owner.maxTopics) return undefined;
    await tx.query(
      `INSERT INTO fhircast_topics (project_id, topic, state) VALUES ($1, $2, $3::jsonb) ON CONFLICT DO NOTHING`,
      [projectId, topic, JSON.stringify(emptyContext)],
    );
    return (await locked()) as FhircastCurrentContext;
  },

  async saveContext(tx: SqlExecutor, projectId: string, topic: string, state: FhircastCurrentContext): Promise<void> {
    await tx.query(
      'UPDATE fhircast_topics SET state = $3::jsonb, updated = now() WHERE project_id = $1 AND topic = $2',
      [projectId, topic, JSON.stringify(state)],
    );
  },

  /** Stores an event for delivery; answers its sequence number. Old events are removed on the way. */
  async addEvent(tx: SqlExecutor, projectId: string, topic: string, envelope: FhircastEventEnvelope): Promise<string> {
    await tx.query(`DELETE FROM fhircast_events WHERE created < now() - interval '${eventRetention}'`);
    const rows = await tx.query<{ id: string }>(
      'INSERT INTO fhircast_events (project_id, topic, envelope) VALUES ($1, $2, $3::jsonb) RETURNING id::text',
      [projectId, topic, JSON.stringify(envelope)],
    );
    return rows[0].id;
  },

  async event(
    db: SqlExecutor,
    id: string,
  ): Promise<{ projectId: string; topic: string; envelope: FhircastEventEnvelope } | undefined> {
    const rows = await db.query<{ project_id: string; topic: string; envelope: FhircastEventEnvelope }>(
      'SELECT project_id, topic, envelope FROM fhircast_events WHERE id = $1::bigint',
      [id],
    );
    const row = rows[0];
    return row ? { projectId: row.project_id, topic: row.topic, envelope: row.envelope } : undefined;
  },

  /**
   * Stores a subscription unless its login or its topic already has as many open ones as allowed:
   * answers which limit it would break ('login' or 'topic'), else undefined. Counted under locks of
   * the login and of the topic (taken in that order), so that concurrent subscribes cannot pass both.
   */
  async addSubscription(
    tx: SqlExecutor,
    subscription: Omit<FhircastSubscription, 'expires'>,
    limits: { perLogin: number; perTopic: number },
  ): Promise<'login' | 'topic' | undefined> {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('fhircast-login:' || $1))", [subscription.loginId]);
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('fhircast-topic:' || $1 || $2))", [
      subscription.projectId,
      subscription.topic,
    ]);
    const rows = await tx.query<{ of_login: number; of_topic: number }>(
      `SELECT count(*) FILTER (WHERE login_id = $1)::integer AS of_login,
              count(*) FILTER (WHERE project_id = $2 AND topic = $3)::integer AS of_topic
       FROM fhircast_subscriptions
       WHERE (login_id = $1 OR (project_id = $2 AND topic = $3))
         AND ended IS NULL AND created > now() - make_interval(secs => $4::float8)`,
      [subscription.loginId, subscription.projectId, subscription.topic, leaseSeconds],
    );
    if (Number(rows[0]?.of_login ?? 0) >= limits.perLogin) return 'login';
    if (Number(rows[0]?.of_topic ?? 0) >= limits.perTopic) return 'topic';
    await tx.query(
      'INSERT INTO fhircast_subscriptions (id, project_id, topic, events, login_id) VALUES ($1, $2, $3, $4::text[], $5)',
      [subscription.id, subscription.projectId, subscription.topic, subscription.events, subscription.loginId],
    );
    return undefined;
  },

  /**
   * Removes what no one can use any more: subscriptions unsubscribed or past their lease (their
   * endpoints open nothing), events past their retention, and topics no open subscription follows
   * whose context has not changed for `idleTopicSeconds` (the next event starts such a topic again).
   * Answers how many rows of each went.
   */
  async sweep(db: SqlExecutor): Promise<{ subscriptions: number; topics: number; events: number }> {
    const subscriptions = await db.query(
      `DELETE FROM fhircast_subscriptions
       WHERE ended IS NOT NULL OR created <= now() - make_interval(secs => $1::float8) RETURNING id`,
      [leaseSeconds],
    );
    const topics = await db.query(
      `DELETE FROM fhircast_topics t
       WHERE t.updated <= now() - make_interval(secs => $1::float8)
         AND NOT EXISTS (
           SELECT 1 FROM fhircast_subscriptions s
           WHERE s.project_id = t.project_id AND s.topic = t.topic AND s.ended IS NULL
             AND s.created > now() - make_interval(secs => $2::float8))
       RETURNING topic`,
      [idleTopicSeconds, leaseSeconds],
    );
    const events = await db.query(
      `DELETE FROM fhircast_events WHERE created < now() - interval '${eventRetention}' RETURNING id`,
    );
    return { subscriptions: subscriptions.length, topics: topics.length, events: events.length };
  },

  /**
   * An open subscription: not unsubscribed, and within its lease. The lease the confirmation
   * announces is kept: an endpoint URL is a bearer capability, and must not outlive it.
   */
  async subscription(db: SqlExecutor, id: string): Promise<FhircastSubscription | undefined> {
    const rows = await db.query<{
      id: string;
      project_id: string;
      topic: string;
      events: string[];
      login_id: string;
      expires: number;
    }>(
      `SELECT id, project_id, topic, events, login_id,
              (extract(epoch FROM created) * 1000 + $2::float8 * 1000)::float8 AS expires
       FROM fhircast_subscriptions
       WHERE id = $1 AND ended IS NULL AND created > now() - make_interval(secs => $2::float8)`,
      [id, leaseSeconds],
    );
    const row = rows[0];
    return row
      ? {
          id: row.id,
          projectId: row.project_id,
          topic: row.topic,
          events: row.events,
          loginId: row.login_id,
          expires: Number(row.expires),
        }
      : undefined;
  },

  /** Ends a subscription of the project and topic; answers whether there was one. */
  async endSubscription(db: SqlExecutor, id: string, projectId: string, topic: string): Promise<boolean> {
    const rows = await db.query(
      'UPDATE fhircast_subscriptions SET ended = now() WHERE id = $1 AND project_id = $2 AND topic = $3 AND ended IS NULL RETURNING id',
      [id, projectId, topic],
    );
    return rows.length > 0;
  },
};
