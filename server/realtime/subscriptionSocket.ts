import type { Subscription } from '@medplum/fhirtypes';
import type { WebSocket } from 'ws';
import type { SigningKeys } from '../auth/signingKeys';
import { FhirError } from '../fhir/fhirError';
import type { Repository } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { isActiveWebsocketSubscription } from './activeSubscriptions';
import { verifyBindingToken } from './bindingToken';
import { checkCriteriaAccess, parseCriteria } from './criteriaMatcher';
import { errorMessage, statusBundle } from './notificationBundle';
import { maxTokenLength, type RealtimeLimits } from './realtimeLimits';
import { policyViolationCode, signInEndedCode } from './socketCloseCodes';
import { sendWithinBacklog } from './socketBackpressure';
import type { SubscriberDirectory } from './subscriberAccess';
import type { SubscriptionClient, SubscriptionHub } from './subscriptionHub';
import type { UnboundSockets } from './unboundSockets';

export interface SubscriptionSocketEnvironment {
  hub: SubscriptionHub;
  keys: SigningKeys;
  repository: Repository;
  registry: SearchParameterRegistry;
  subscribers: SubscriberDirectory;
  limits: Pick<RealtimeLimits, 'maxPendingCommandsPerSocket' | 'maxBufferedBytesPerSocket'>;
  /** Times the socket whenever it has no binding (closed past the idle limit). */
  unbound: UnboundSockets<WebSocket>;
}

/** A command as kept while it waits for its turn: its type and token only, never the message. */
type Command = { type: 'ping' } | { type: 'bind-with-token' | 'unbind-from-token'; token: unknown } | { error: string };

/**
 * The protocol of `/ws/subscriptions-r4` for one socket: `bind-with-token`, `unbind-from-token` and
 * `ping` (answered `pong`). A bad message is answered with an error message; the socket stays open.
 * Each binding lasts until the session of the login that bound it ends (the hub's timers); when the
 * last binding of a socket ends that way, the socket is closed with 4401. A socket without any
 * binding (not yet bound, or whose last binding was unbound) is closed with 4408 past the idle limit.
 */
export function serveSubscriptionSocket(socket: WebSocket, env: SubscriptionSocketEnvironment): void {
  const client: SubscriptionClient = {
    send: (data: string) => {
      sendWithinBacklog(socket, data, env.limits.maxBufferedBytesPerSocket);
    },
    bindingsEnded: (subscriptionIds, remaining) => {
      for (const id of subscriptionIds) {
        send(errorMessage(`Subscription/${id}: the sign-in session of this binding has ended`, 'login'));
      }
      if (remaining === 0) socket.close(signInEndedCode, 'The sign-in session has ended');
    },
    boundChanged: (bound) => {
      // A socket already closing is forgotten by its close handler; timing it again would keep it.
      if (socket.readyState !== socket.OPEN) return;
      if (bound) env.unbound.bound(socket);
      else env.unbound.unbound(socket);
    },
  };
  env.unbound.unbound(socket);
  const send = (message: unknown) => client.send(JSON.stringify(message));
  // Commands of one socket are handled in the order they came, even when one has to wait for the
  // database; a client may not queue more than a bounded number of them.
  let previous: Promise<void> = Promise.resolve();
  let pending = 0;
  socket.on('message', (data, isBinary) => {
    if (pending >= env.limits.maxPendingCommandsPerSocket) {
      socket.close(
        policyViolationCode,
        `More than ${env.limits.maxPendingCommandsPerSocket} commands waiting: wait for answers`,
      );
      return;
    }
    // Read now, so that what waits is a few small fields rather than the message as sent.
    const command = commandOf(isBinary ? '' : data.toString());
    pending++;
    previous = previous.then(() =>
      handle(command)
        .catch((error: unknown) => {
          send(errorMessage(error instanceof FhirError ? error.message : 'Internal server error', 'invalid'));
          if (!(error instanceof FhirError)) console.error('realtime: socket command failed', error);
        })
        .finally(() => pending--),
    );
  });
  socket.on('close', () => {
    env.unbound.closed(socket);
    env.hub.removeClient(client);
  });
  socket.on('error', () => env.hub.removeClient(client));

  async function handle(command: Command): Promise<void> {
    // Commands still queued when the socket closed ask for nothing anyone will hear.
    if (socket.readyState !== socket.OPEN) return;
    if ('error' in command) return send(errorMessage(command.error));
    switch (command.type) {
      case 'ping':
        return send({ type: 'pong' });
      case 'bind-with-token':
        return bind(command.token);
      case 'unbind-from-token':
        return unbind(command.token);
    }
  }

  async function bind(token: unknown): Promise<void> {
    const verified = await verifyBindingToken(env.keys, token);
    if ('problem' in verified) return send(errorMessage(verified.problem, 'login'));
    const { loginId, subscriptionId } = verified.claims;
    const subscriber = await env.subscribers.get(loginId);
    if (!subscriber) return send(errorMessage('Unauthorized: the sign-in of this token has ended', 'login'));
    let subscription: Subscription;
    try {
      subscription = (await env.repository.transaction(
        (session) => session.read('Subscription', subscriptionId),
        subscriber.access,
      )) as Subscription;
    } catch (error) {
      if (error instanceof FhirError) {
        return send(errorMessage(`Subscription/${subscriptionId}: ${error.message}`, 'not-found'));
      }
      throw error;
    }
    if (!isActiveWebsocketSubscription(subscription)) {
      return send(
        errorMessage(
          `Subscription/${subscriptionId} is not an active websocket subscription (status ${subscription.status})`,
        ),
      );
    }
    // Throws the search API's 400; read with the parameters of the subscription's project.
    const criteria = parseCriteria(
      subscription.criteria as string,
      env.registry.forProject(subscription.meta?.project),
    );
    // The subscriber must be allowed to ask the criteria as a search (the hub checks it again on
    // every write, as the policy may change): said here, so that the client learns why nothing comes.
    try {
      checkCriteriaAccess(criteria, subscriber.access);
    } catch (error) {
      if (error instanceof FhirError) {
        return send(errorMessage(`Subscription/${subscriptionId}: ${error.message}`, 'forbidden'));
      }
      throw error;
    }
    // The socket closed while the database answered: nothing to bind (its bindings are forgotten).
    if (socket.readyState !== socket.OPEN) return;
    const refused = env.hub.bind(client, subscriptionId, subscriber);
    if (refused) return send(errorMessage(`Subscription/${subscriptionId}: ${refused}`, 'throttled'));
    send(statusBundle(subscriptionId, 'handshake', env.hub.eventCount(client, subscriptionId)));
  }

  async function unbind(token: unknown): Promise<void> {
    const verified = await verifyBindingToken(env.keys, token);
    if ('problem' in verified) return send(errorMessage(verified.problem, 'login'));
    const { subscriptionId } = verified.claims;
    if (!env.hub.unbind(client, subscriptionId)) {
      send(errorMessage(`Subscription/${subscriptionId} is not bound to this socket`, 'not-found'));
    }
  }
}

/** The command a message asks for, or the error to answer it with. */
function commandOf(text: string): Command {
  let message: { type?: unknown; payload?: { token?: unknown } };
  try {
    message = JSON.parse(text) as typeof message;
  } catch {
    return { error: 'Messages must be JSON' };
  }
  const type = message?.type;
  if (type === 'ping') return { type };
  if (type === 'bind-with-token' || type === 'unbind-from-token') {
    const token = message.payload?.token;
    if (typeof token === 'string' && token.length > maxTokenLength) {
      return { error: `Invalid token: longer than ${maxTokenLength} characters` };
    }
    return { type, token };
  }
  return { error: `Unknown message type: ${String(type)}` };
}
