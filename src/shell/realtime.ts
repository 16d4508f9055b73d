import type { FhirClient } from '../../data-provider/client';
import { SubscriptionManager, websocketSubscription } from '../../data-provider/realtime';

const managers = new WeakMap<FhirClient, SubscriptionManager>();
const boundCriteria = new WeakMap<SubscriptionManager, Set<string>>();

/** Is the criteria bound to the open socket now (notifications for it will arrive)? */
export function isCriteriaBound(manager: SubscriptionManager, criteria: string): boolean {
  return boundCriteria.get(manager)?.has(criteria) === true;
}

/**
 * The one realtime connection of a client (one socket for every live count and screen). Undefined
 * where the browser has no WebSocket.
 */
export function subscriptionManagerFor(client: FhirClient): SubscriptionManager | undefined {
  let manager = managers.get(client);
  if (manager) return manager;
  if (typeof WebSocket === 'undefined') return undefined;
  manager = new SubscriptionManager({
    backend: {
      createSubscription: async (criteria) => {
        const created = await client.createResource(websocketSubscription(criteria));
        return { id: created.id as string };
      },
      getBindingToken: (subscriptionId) => client.getSubscriptionBindingToken(subscriptionId),
    },
  });
  // Live updates are a bonus on top of loaded data: a failure leaves the last loaded values.
  manager.on('error', ({ error, criteria }) => console.warn('Realtime subscription problem', criteria ?? '', error));
  const bound = new Set<string>();
  manager.on('bound', ({ criteria }) => bound.add(criteria));
  manager.on('disconnect', () => bound.clear());
  boundCriteria.set(manager, bound);
  managers.set(client, manager);
  return manager;
}
