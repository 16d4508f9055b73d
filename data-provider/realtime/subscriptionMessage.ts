import type { Bundle, OperationOutcome, Resource, SubscriptionStatus } from '@medplum/fhirtypes';

/** What arrives on the subscription socket, sorted by what the client has to do with it. */
export type SubscriptionMessage =
  | { kind: 'pong' }
  /** The server confirms a binding. */
  | { kind: 'handshake'; subscriptionId: string }
  /** The server says a subscription is still alive. */
  | { kind: 'heartbeat'; subscriptionId: string | undefined }
  | { kind: 'notification'; subscriptionId: string; bundle: Bundle; resource: Resource | undefined }
  | { kind: 'error'; error: Error }
  /** Valid JSON that this client does not know; ignored, so that newer servers can add messages. */
  | { kind: 'ignored' };

/** Messages the client sends. */
export function bindWithTokenMessage(token: string): string {
  return JSON.stringify({ type: 'bind-with-token', payload: { token } });
}
export function unbindFromTokenMessage(token: string): string {
  return JSON.stringify({ type: 'unbind-from-token', payload: { token } });
}
export const PING_MESSAGE = JSON.stringify({ type: 'ping' });

/**
 * Reads one socket message. Notifications are history Bundles whose first entry is a
 * SubscriptionStatus naming the subscription ('Subscription/{id}') and whose second entry, if
 * any, is the resource that changed.
 */
export function parseSubscriptionMessage(data: string): SubscriptionMessage {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return { kind: 'error', error: new Error(`Subscription message is not JSON: ${data.slice(0, 100)}`) };
  }
  if (!isObject(message)) return { kind: 'ignored' };
  if (message.type === 'pong') return { kind: 'pong' };
  if (message.type === 'heartbeat') return { kind: 'heartbeat', subscriptionId: undefined };
  if (message.type === 'error') return { kind: 'error', error: new Error(serverErrorText(message.payload)) };
  if (message.resourceType !== 'Bundle') return { kind: 'ignored' };

  const bundle = message as unknown as Bundle;
  const status = bundle.entry?.[0]?.resource as SubscriptionStatus | undefined;
  if (status?.resourceType !== 'SubscriptionStatus') return { kind: 'ignored' };
  const subscriptionId = subscriptionIdOf(status.subscription?.reference);
  if (status.type === 'heartbeat') return { kind: 'heartbeat', subscriptionId };
  if (!subscriptionId) {
    return { kind: 'error', error: new Error('Subscription notification names no subscription') };
  }
  if (status.type === 'handshake') return { kind: 'handshake', subscriptionId };
  if (status.type !== undefined && status.type !== 'event-notification') return { kind: 'ignored' };
  return { kind: 'notification', subscriptionId, bundle, resource: bundle.entry?.[1]?.resource };
}

/** 'Subscription/abc', or a full URL ending so, gives 'abc'. */
function subscriptionIdOf(reference: string | undefined): string | undefined {
  return /(?:^|\/)Subscription\/([^/?#]+)$/.exec(reference ?? '')?.[1];
}

function serverErrorText(payload: unknown): string {
  const outcome = payload as OperationOutcome | undefined;
  const texts = (outcome?.issue ?? []).map((issue) => issue.details?.text ?? issue.diagnostics).filter(Boolean);
  return texts.length > 0 ? `Subscription server error: ${texts.join('; ')}` : 'Subscription server error';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
