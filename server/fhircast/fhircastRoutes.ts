import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  FHIRCAST_HUB_PATH,
  canonicalFhircastEventName,
  parseSubscriptionRequestForm,
  validateSubscriptionRequest,
} from '../../data-provider/fhircast';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { authenticate } from '../auth/authenticate';
import type { AccessGuard } from '../auth/accessGuard';
import { outcomeOf } from '../fhir/fhirError';
import {
  acquireClusterBus,
  addWebsocketRoute,
  noSuchEndpointCode,
  SubscriberDirectory,
  watchAccessChanges,
} from '../realtime';
import type { Database } from '../storage/database';
import { contextVisibleTo, publicTopic, topicKey } from './fhircastAccess';
import { checkEventEnvelope, emptyContext, nextContext } from './fhircastContextState';
import { defaultFhircastLimits, maxFhircastMessageBytes, type FhircastLimits } from './fhircastLimits';
import { FhircastPublishRates } from './fhircastPublishRates';
import { FhircastSockets } from './fhircastSockets';
import { fhircastStore } from './fhircastStore';

export interface FhircastOptions {
  auth: AuthEnvironment;
  db: Database;
  /** Limits other than the defaults (fhircastLimits.ts). */
  limits?: Partial<FhircastLimits>;
  /** The clock publishing rates are counted by (tests move it); Date.now by default. */
  now?: () => number;
}

/** Websocket endpoints handed out on subscribe: `/ws/fhircast/{subscription id}`. */
export const FHIRCAST_WEBSOCKET_PREFIX = '/ws/fhircast/';

const hubPath = `/${FHIRCAST_HUB_PATH}`;

/** How often open sockets are checked for an ended lease (and a sign-in ended unannounced). */
const sweepMs = 60_000;

/** The signed-in caller of a hub request, with what it may read and the key of `topic` for it. */
function callerOfHub(request: FastifyRequest, topic: string) {
  const caller = request.caller as NonNullable<typeof request.caller>;
  // Every signed-in caller has a guard (callerResolver.ts); without one nothing could be checked.
  const access = caller.ctx.access as AccessGuard;
  return {
    caller,
    access,
    projectId: caller.project.id as string,
    key: topicKey(caller.profile.reference as string, topic),
  };
}

/**
 * 429: a limit of what the caller may hold open (they free up on unsubscribe, or when leases end),
 * or of how fast it may publish.
 */
function tooMany(reply: FastifyReply, text: string, path?: string) {
  return reply
    .code(429)
    .type('application/fhir+json')
    .send(
      outcomeOf([{ severity: 'error', code: 'throttled', details: { text }, ...(path ? { expression: [path] } : {}) }]),
    );
}

function badRequest(reply: FastifyReply, text: string, path?: string) {
  return reply
    .code(400)
    .type('application/fhir+json')
    .send(
      outcomeOf([{ severity: 'error', code: 'invalid', details: { text }, ...(path ? { expression: [path] } : {}) }]),
    );
}

/**
 * The FHIRcast STU3 hub (issue #5; data-and-client-layer-spec.md §5, §7 'Hub'): websocket
 * subscriptions, event publishing with the context checks the client shares, and each topic's current
 * context. Topics belong to the caller's project; state lives in the database and events reach the
 * sockets of every server process (docs/realtime.md).
 */
export async function fhircastRoutes(app: FastifyInstance, options: FhircastOptions): Promise<void> {
  const { auth, db } = options;
  const limits: FhircastLimits = { ...defaultFhircastLimits, ...options.limits };
  const { bus, release } = await acquireClusterBus(db);
  // Resolved like a signed-in caller from the subscribing login, whenever an event is delivered.
  const subscribers = new SubscriberDirectory(auth.repository, auth.registry, auth.sharedProjectId);
  const sockets = new FhircastSockets(auth.repository, subscribers, Date.now, limits);
  const publishRates = new FhircastPublishRates(
    { perSecond: limits.eventsPerSecondPerPerson, burst: limits.eventBurstPerPerson },
    options.now,
  );
  const recheck = () =>
    sockets.recheck().catch((error: unknown) => console.error('fhircast: checking open sockets failed', error));
  // Rows no one can use any more (ended subscriptions, idle topics, old events) go on the same sweep.
  const sweepStore = () =>
    fhircastStore.sweep(db).catch((error: unknown) => console.error('fhircast: removing unused rows failed', error));
  // A revoked sign-in or a membership switched off closes its sockets at once, on every process.
  const stopWatching = watchAccessChanges(auth.repository, bus, () => {
    subscribers.invalidate();
    void recheck();
  });
  const sweep = setInterval(() => {
    void recheck();
    void sweepStore();
    publishRates.sweep();
  }, sweepMs);
  sweep.unref();
  const endpointBase = new URL(FHIRCAST_WEBSOCKET_PREFIX.slice(1), auth.config.baseUrl);
  endpointBase.protocol = endpointBase.protocol === 'https:' ? 'wss:' : 'ws:';

  // Signed-in callers only (the websocket itself is reached through the unguessable endpoint it was given).
  app.addHook('onRequest', async (request) => {
    await authenticate(auth, request);
  });

  const stopEvents = bus.on('fhircast-event', (message) => {
    void fhircastStore
      .event(db, String(message.id))
      .then((event) => (event ? sockets.deliver(event.projectId, event.topic, event.envelope) : undefined))
      .catch((error: unknown) => console.error('fhircast: delivering an event from another process failed', error));
  });
  const stopEnded = bus.on('fhircast-ended', (message) => sockets.end(String(message.id)));

  app.post(hubPath, async (request, reply) => {
    // A JSON event envelope posted to the hub base (what Medplum's fhircastPublish sends): its topic
    // is the one it names in event['hub.topic'].
    const eventTopic = hubEventTopic(request.body);
    if (eventTopic !== undefined) return publishEvent(request, reply, eventTopic);
    const caller = request.caller as NonNullable<typeof request.caller>;
    // A JSON list would make URLSearchParams throw (a 500): only text or an object is a form.
    if (Array.isArray(request.body)) return badRequest(reply, 'The body must be a form or an event envelope');
    const form =
      typeof request.body === 'string'
        ? new URLSearchParams(request.body)
        : new URLSearchParams((request.body ?? {}) as Record<string, string>);
    const subscription = parseSubscriptionRequestForm(form);
    subscription.events = subscription.events.map((event) => canonicalFhircastEventName(event) ?? event);
    const problem = validateSubscriptionRequest(subscription);
    if (problem) return badRequest(reply, problem);
    const { projectId, key } = callerOfHub(request, subscription.topic);
    if (subscription.mode === 'subscribe') {
      const id = randomUUID();
      const refused = await db.transaction((tx) =>
        fhircastStore.addSubscription(
          tx,
          { id, projectId, topic: key, events: subscription.events, loginId: caller.login.id as string },
          { perLogin: limits.maxSubscriptionsPerLogin, perTopic: limits.maxSubscriptionsPerTopic },
        ),
      );
      if (refused === 'login') {
        return tooMany(
          reply,
          `This sign-in has ${limits.maxSubscriptionsPerLogin} open FHIRcast subscriptions, the most one sign-in may hold: unsubscribe one first`,
          'hub.mode',
        );
      }
      if (refused === 'topic') {
        return tooMany(
          reply,
          `Topic "${subscription.topic}" has ${limits.maxSubscriptionsPerTopic} open subscriptions, the most one topic may have: unsubscribe one first`,
          'hub.topic',
        );
      }
      return reply.code(202).send({ 'hub.channel.endpoint': new URL(id, endpointBase).toString() });
    }
    const endpoint = subscription.endpoint as string;
    const id = endpoint.startsWith(endpointBase.toString()) ? endpoint.slice(endpointBase.toString().length) : '';
    if (!id || !(await fhircastStore.endSubscription(db, id, projectId, key))) {
      return badRequest(
        reply,
        `No subscription to topic "${subscription.topic}" at ${endpoint}`,
        'hub.channel.endpoint',
      );
    }
    sockets.end(id);
    await bus.publish('fhircast-ended', { id });
    return reply.code(202).send({ 'hub.channel.endpoint': endpoint });
  });

  /** Checks an event against the topic's context, saves it and sends it to the topic's subscribers. */
  const publishEvent = async (request: FastifyRequest, reply: FastifyReply, topic: string) => {
    const { caller, access, projectId, key } = callerOfHub(request, topic);
    // Counted before anything is read or checked: a refused or invalid event costs the hub too.
    const waitSeconds = publishRates.take(`${projectId}\n${caller.profile.reference}`);
    if (waitSeconds !== undefined) {
      reply.header('retry-after', String(waitSeconds));
      return tooMany(
        reply,
        `You are publishing FHIRcast events faster than ${limits.eventsPerSecondPerPerson} a second (${limits.eventBurstPerPerson} at once), the most one person may: try again in ${waitSeconds} second${waitSeconds === 1 ? '' : 's'}`,
      );
    }
    const checked = checkEventEnvelope(topic, request.body);
    if ('problem' in checked) return badRequest(reply, checked.problem, checked.path);
    // No context naming a record the publisher may not read: a patient could otherwise put another
    // patient (or another project's record) in front of the applications that follow the topic.
    if (!(await contextVisibleTo(auth.repository, access, checked.event.envelope.event.context ?? []))) {
      return reply
        .code(403)
        .type('application/fhir+json')
        .send(
          outcomeOf([
            {
              severity: 'error',
              code: 'forbidden',
              details: { text: 'Forbidden: the context names a resource you may not read' },
              expression: ['event.context'],
            },
          ]),
        );
    }
    const owner = { prefix: topicKey(caller.profile.reference as string, ''), maxTopics: limits.maxTopicsPerOwner };
    const outcome = await db.transaction(async (tx) => {
      const current = await fhircastStore.lockContext(tx, projectId, key, owner);
      if (!current) return { tooManyTopics: true as const };
      const next = nextContext(current, checked.event);
      if ('problem' in next) return next;
      await fhircastStore.saveContext(tx, projectId, key, next.context);
      const eventId = await fhircastStore.addEvent(tx, projectId, key, checked.event.envelope);
      return { eventId, context: next.context };
    });
    if ('tooManyTopics' in outcome) {
      return tooMany(
        reply,
        `You have ${limits.maxTopicsPerOwner} FHIRcast topics, the most one person may have: publish to one of them (a topic no one follows is removed a day after its last change)`,
        'event.hub.topic',
      );
    }
    if ('problem' in outcome) return badRequest(reply, outcome.problem, outcome.path);
    // The event is saved: a failure to send it here must not stop the other processes hearing of it.
    await sockets
      .deliver(projectId, key, checked.event.envelope)
      .catch((error: unknown) => console.error('fhircast: delivering an event failed', error));
    await bus.publish('fhircast-event', { id: outcome.eventId });
    return reply.code(202).send({
      success: true,
      id: checked.event.envelope.id,
      ...(outcome.context['context.versionId'] ? { 'context.versionId': outcome.context['context.versionId'] } : {}),
    });
  };

  app.post<{ Params: { topic: string } }>(`${hubPath}/:topic`, (request, reply) =>
    publishEvent(request, reply, request.params.topic),
  );

  app.get<{ Params: { topic: string } }>(`${hubPath}/:topic`, async (request) => {
    const { access, projectId, key } = callerOfHub(request, request.params.topic);
    const current = await fhircastStore.currentContext(db, projectId, key);
    // A caller that may not read what is open (an app with narrower scopes) sees nothing open.
    const context = await contextVisibleTo(auth.repository, access, current.context);
    return context ? { ...current, context } : emptyContext;
  });

  const removeRoute = addWebsocketRoute(app.server, {
    matches: (path) => path.startsWith(FHIRCAST_WEBSOCKET_PREFIX),
    maxMessageBytes: maxFhircastMessageBytes,
    accept: (socket, _request, path) => {
      const id = endpointId(path.slice(FHIRCAST_WEBSOCKET_PREFIX.length));
      if (id === undefined) {
        socket.close(noSuchEndpointCode, 'No such FHIRcast subscription');
        return;
      }
      fhircastStore
        .subscription(db, id)
        .then(async (subscription) => {
          if (!subscription) {
            socket.close(
              noSuchEndpointCode,
              'No such FHIRcast subscription (unsubscribed, past its lease or never made)',
            );
            return;
          }
          // The endpoint is a bearer capability: it opens only while its sign-in lasts.
          const subscriber = await sockets.admit(subscription, socket);
          // Closed while the database answered: nothing to serve (and nothing left behind for it).
          if (!subscriber || socket.readyState !== socket.OPEN) return;
          sockets.add(subscription, socket, subscriber);
          // FHIRcast: the hub confirms the subscription on the socket before any event.
          socket.send(
            JSON.stringify({
              'hub.mode': 'subscribe',
              'hub.topic': publicTopic(subscription.topic),
              'hub.events': subscription.events.join(','),
              // What is left of the lease, or of the sign-in's session if that ends first.
              'hub.lease_seconds': Math.max(
                0,
                Math.floor((Math.min(subscription.expires, subscriber.sessionEnds) - Date.now()) / 1000),
              ),
            }),
          );
        })
        .catch((error: unknown) => {
          console.error('fhircast: opening a subscription socket failed', error);
          socket.close(1011, 'Internal server error');
        });
    },
  });

  app.addHook('preClose', async () => {
    clearInterval(sweep);
    stopWatching();
    stopEvents();
    stopEnded();
    removeRoute();
    await release();
  });
}

/** The subscription id of an endpoint path, or undefined when it is not percent-encoded text (`%E0%A4%A`). */
function endpointId(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/** The topic of a JSON event envelope `{timestamp, id, event: {'hub.topic', 'hub.event', context}}`, else undefined. */
function hubEventTopic(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'hub.mode' in body) return undefined;
  const event = (body as { event?: unknown }).event;
  if (typeof event !== 'object' || event === null) return undefined;
  const topic = (event as Record<string, unknown>)['hub.topic'];
  return typeof topic === 'string' ? topic : '';
}
