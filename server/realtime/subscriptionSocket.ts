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
import type { SubscriberDirectory } from './subscriberAccess';
import type { SubscriptionHub } from './subscriptionHub';

export interface SubscriptionSocketEnvironment {
  hub: SubscriptionHub;
  keys: SigningKeys;
  repository: Repository;
  registry: SearchParameterRegistry;
  subscribers: SubscriberDirectory;
}

/**
 * The protocol of `/ws/subscriptions-r4` for one socket: `bind-with-token`, `unbind-from-token` and
 * `ping` (answered `pong`). A bad message is answered with an error message; the socket stays open.
 */
export function serveSubscriptionSocket(socket: WebSocket, env: SubscriptionSocketEnvironment): void {
  const client = { send: (data: string) => socket.send(data) };
  const send = (message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  // Commands of one socket are handled in the order they came, even when one has to wait for the database.
  let previous: Promise<void> = Promise.resolve();
  socket.on('message', (data, isBinary) => {
    previous = previous.then(() =>
      handle(isBinary ? '' : data.toString()).catch((error: unknown) => {
        send(errorMessage(error instanceof FhirError ? error.message : 'Internal server error', 'invalid'));
        if (!(error instanceof FhirError)) console.error('realtime: socket command failed', error);
      }),
    );
  });
  socket.on('close', () => env.hub.removeClient(client));
  socket.on('error', () => env.hub.removeClient(client));

  async function handle(text: string): Promise<void> {
    let message: { type?: unknown; payload?: { token?: unknown } };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return send(errorMessage('Messages must be JSON'));
    }
    switch (message?.type) {
      case 'ping':
        return send({ type: 'pong' });
      case 'bind-with-token':
        return bind(message.payload?.token);
      case 'unbind-from-token':
        return unbind(message.payload?.token);
      default:
        return send(errorMessage(`Unknown message type: ${String(message?.type)}`));
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
    env.hub.bind(client, subscriptionId, loginId);
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
