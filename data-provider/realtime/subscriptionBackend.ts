import type { Parameters, Subscription } from '@medplum/fhirtypes';

/** Token and socket address from Subscription/{id}/$get-ws-binding-token. */
export interface BindingToken {
  token: string;
  websocketUrl: string;
}

/**
 * The two server calls the subscription manager needs. An interface rather than the FHIR client
 * itself, so the manager runs against any client (or a test double) that can make them.
 */
export interface SubscriptionBackend {
  /** Creates the Subscription resource (see websocketSubscription) and answers its id. */
  createSubscription(criteria: string): Promise<{ id: string }>;
  /** GET Subscription/{id}/$get-ws-binding-token, read with readBindingToken. */
  getBindingToken(subscriptionId: string): Promise<BindingToken>;
}

/** The Subscription resource created for a criteria (spec §3): active, websocket channel. */
export function websocketSubscription(criteria: string): Subscription {
  return {
    resourceType: 'Subscription',
    status: 'active',
    reason: `Realtime updates over websocket for ${criteria}`,
    criteria,
    channel: { type: 'websocket' },
  };
}

/** Relative path of the binding-token operation for a subscription. */
export function bindingTokenPath(subscriptionId: string): string {
  return `Subscription/${encodeURIComponent(subscriptionId)}/$get-ws-binding-token`;
}

/**
 * Token and websocket URL from the operation's Parameters (`token`, `websocket-url`). Missing
 * values come back empty; the subscription manager reports them with the spec's messages.
 */
export function readBindingToken(parameters: Parameters | undefined): BindingToken {
  const parameter = (name: string) => parameters?.parameter?.find((entry) => entry.name === name);
  const token = parameter('token');
  const url = parameter('websocket-url');
  return {
    token: token?.valueString ?? '',
    websocketUrl: url?.valueUrl ?? url?.valueUri ?? url?.valueString ?? '',
  };
}
