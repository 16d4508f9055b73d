import type { Parameters } from '@medplum/fhirtypes';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { SUBSCRIPTIONS_WEBSOCKET_PATH } from '../../data-provider/realtime/websocketConstants';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { callerOf } from '../auth/authenticate';
import type { Database } from '../storage/database';
import { ActiveSubscriptionCache } from './activeSubscriptions';
import { defaultRealtimeLimits, maxCommandBytes, type RealtimeLimits } from './realtimeLimits';
import { bindingTokenSeconds, signBindingToken } from './bindingToken';
import { acquireClusterBus } from './sharedClusterBus';
import { SubscriberDirectory } from './subscriberAccess';
import { SubscriptionHub, type HubStats } from './subscriptionHub';
import { subscriptionQuotaHook } from './subscriptionQuota';
import { unboundIdleCode } from './socketCloseCodes';
import { serveSubscriptionSocket } from './subscriptionSocket';
import { timerSchedule, UnboundSockets, type Schedule } from './unboundSockets';
import { addWebsocketRoute } from './websocketUpgrade';

export interface RealtimeOptions {
  auth: AuthEnvironment;
  db: Database;
  /** How often bound subscriptions get a heartbeat, and sockets a protocol-level ping. */
  heartbeatMs: number;
  /** Limits other than the defaults (realtimeLimits.ts). */
  limits?: Partial<RealtimeLimits>;
  /** The timers sockets without a binding are closed by (tests pass a clock they move). */
  schedule?: Schedule;
}

/** Default of REALTIME_HEARTBEAT_MS. */
export const defaultHeartbeatMs = 10_000;

const hubs = new WeakMap<
  object,
  { hub: SubscriptionHub; sockets: Set<WebSocket>; unbound: UnboundSockets<WebSocket> }
>();

/** The subscription hub serving `app` (benchmarks and tests wait for it to settle). */
export function subscriptionHubOf(app: FastifyInstance): SubscriptionHub | undefined {
  return hubs.get(app.server)?.hub;
}

/**
 * What this process holds for realtime: open sockets (and those of them without a binding), bound
 * subscriptions, notifications sent.
 */
export function realtimeStatsOf(
  app: FastifyInstance,
): (HubStats & { sockets: number; unboundSockets: number }) | undefined {
  const entry = hubs.get(app.server);
  return entry && { ...entry.hub.stats(), sockets: entry.sockets.size, unboundSockets: entry.unbound.size };
}

/** `ws(s)://host/ws/subscriptions-r4` for a server whose public URL is `baseUrl`. */
export function subscriptionsWebsocketUrl(baseUrl: string): string {
  const url = new URL(SUBSCRIPTIONS_WEBSOCKET_PATH.slice(1), baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * Realtime subscriptions (issue #5): `$get-ws-binding-token` and the websocket `/ws/subscriptions-r4`
 * on which bound Subscriptions receive their notifications (docs/realtime.md).
 */
export async function realtimeRoutes(app: FastifyInstance, options: RealtimeOptions): Promise<void> {
  const { auth, db } = options;
  const baseUrl = auth.config.baseUrl;
  const limits: RealtimeLimits = { ...defaultRealtimeLimits, ...options.limits };
  // Refused inside the writing transaction (REST, batch, bots alike): nothing is stored past the limit.
  const stopQuota = auth.repository.onBeforeCommit(
    subscriptionQuotaHook(() => limits.maxActiveSubscriptionsPerProject),
  );
  const { bus, release } = await acquireClusterBus(db);
  const cache = new ActiveSubscriptionCache(db, auth.registry);
  const subscribers = new SubscriberDirectory(auth.repository, auth.registry, auth.sharedProjectId);
  const hub = new SubscriptionHub(
    auth.repository,
    auth.registry,
    cache,
    subscribers,
    bus,
    `${baseUrl}fhir/R4/`,
    limits,
  );
  hub.start();

  app.get<{ Params: { id: string } }>('/fhir/R4/Subscription/:id/$get-ws-binding-token', async (request) => {
    const caller = callerOf(request);
    const { id } = request.params;
    // Only a caller who may read the Subscription gets a token for it (403/404 otherwise).
    await auth.repository.transaction((session) => session.read('Subscription', id), caller.ctx.access);
    const token = await signBindingToken(auth.keys, { loginId: caller.login.id as string, subscriptionId: id });
    const answer: Parameters = {
      resourceType: 'Parameters',
      parameter: [
        { name: 'token', valueString: token },
        { name: 'expiration', valueDateTime: new Date(Date.now() + bindingTokenSeconds * 1000).toISOString() },
        { name: 'subscription', valueString: id },
        { name: 'websocket-url', valueUrl: subscriptionsWebsocketUrl(baseUrl) },
      ],
    };
    return answer;
  });

  const alive = new WeakSet<WebSocket>();
  const sockets = new Set<WebSocket>();
  const unbound = new UnboundSockets<WebSocket>(
    limits,
    (socket) =>
      socket.close(
        unboundIdleCode,
        `No subscription bound within ${limits.unboundSocketIdleMs / 1000} s: bind one right after connecting`,
      ),
    options.schedule ?? timerSchedule,
  );
  hubs.set(app.server, { hub, sockets, unbound });
  const removeRoute = addWebsocketRoute(app.server, {
    matches: (path) => path === SUBSCRIPTIONS_WEBSOCKET_PATH,
    maxMessageBytes: maxCommandBytes,
    // Refused before the handshake: a socket accepted only to be closed would be kept until its client answers.
    refuse: () => {
      const text = unbound.refusal();
      // By then every socket waiting now has bound or been closed.
      const retryAfterSeconds = Math.ceil(limits.unboundSocketIdleMs / 1000);
      return text === undefined ? undefined : { status: 503, code: 'throttled', text, retryAfterSeconds };
    },
    accept: (socket) => {
      sockets.add(socket);
      alive.add(socket);
      socket.on('pong', () => alive.add(socket));
      socket.on('close', () => sockets.delete(socket));
      serveSubscriptionSocket(socket, {
        hub,
        keys: auth.keys,
        repository: auth.repository,
        registry: auth.registry,
        subscribers,
        limits,
        unbound,
      });
    },
  });

  const timer = setInterval(() => {
    hub.heartbeat();
    // A socket that did not answer the last protocol ping is gone (a dead network path): let it go.
    for (const socket of sockets) {
      if (!alive.has(socket)) {
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
  }, options.heartbeatMs);
  timer.unref();

  app.addHook('preClose', async () => {
    clearInterval(timer);
    stopQuota();
    hub.stop();
    removeRoute();
    await release();
  });
}
