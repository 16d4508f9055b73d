import type { Bundle, OperationOutcome, Resource, SubscriptionStatus } from '@medplum/fhirtypes';
import type { HistoryOperation } from '../fhir/repository';

/** The Bundle sent for one matching write: a history Bundle, SubscriptionStatus first, then the resource. */
export function notificationBundle(options: {
  subscriptionId: string;
  eventNumber: number;
  operation: HistoryOperation;
  /** The resource as the subscriber may see it; for a delete, the content it had. */
  resource: Resource;
  fhirBase: string;
}): Bundle {
  const { subscriptionId, eventNumber, operation, resource, fhirBase } = options;
  const timestamp = new Date().toISOString();
  const reference = `${resource.resourceType}/${resource.id}`;
  const status: SubscriptionStatus = {
    resourceType: 'SubscriptionStatus',
    status: 'active',
    type: 'event-notification',
    subscription: { reference: `Subscription/${subscriptionId}` },
    eventsSinceSubscriptionStart: String(eventNumber),
    notificationEvent: [{ eventNumber: String(eventNumber), timestamp, focus: { reference } }],
  };
  const method = operation === 'create' ? 'POST' : operation === 'update' ? 'PUT' : 'DELETE';
  return {
    resourceType: 'Bundle',
    id: crypto.randomUUID(),
    type: 'history',
    timestamp,
    entry: [
      { fullUrl: `urn:uuid:${crypto.randomUUID()}`, resource: status },
      {
        fullUrl: `${fhirBase}${reference}`,
        resource,
        request: { method, url: operation === 'create' ? resource.resourceType : reference },
        response: { status: operation === 'create' ? '201' : operation === 'update' ? '200' : '204' },
      },
    ],
  };
}

/** A one-entry Bundle whose SubscriptionStatus is a handshake (binding confirmed) or a heartbeat. */
export function statusBundle(subscriptionId: string, type: 'handshake' | 'heartbeat', eventCount: number): Bundle {
  const status: SubscriptionStatus = {
    resourceType: 'SubscriptionStatus',
    status: 'active',
    type,
    subscription: { reference: `Subscription/${subscriptionId}` },
    eventsSinceSubscriptionStart: String(eventCount),
  };
  return {
    resourceType: 'Bundle',
    id: crypto.randomUUID(),
    type: 'history',
    timestamp: new Date().toISOString(),
    entry: [{ fullUrl: `urn:uuid:${crypto.randomUUID()}`, resource: status }],
  };
}

/** An error sent on the socket instead of closing it: `{type: 'error', payload: OperationOutcome}`. */
export function errorMessage(
  text: string,
  code: 'invalid' | 'forbidden' | 'login' | 'not-found' | 'throttled' | 'too-long' = 'invalid',
) {
  const payload: OperationOutcome = {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code, details: { text } }],
  };
  return { type: 'error', payload };
}
