import type { Resource, ResourceType } from '@medplum/fhirtypes';

import type { FhircastEventName } from './fhircastEvents';

/**
 * The resource of a context entry: often only type and id (plus perhaps an identifier), since
 * applications share which record is open, not its content; a full resource is fine too.
 */
export type FhircastContextResource = Resource | { resourceType: ResourceType; id: string };

/** One entry of an event's context: a key and the resource it names. */
export interface FhircastContextEntry {
  key: string;
  resource: FhircastContextResource;
}

/** A subscription request to the hub, as fields rather than its form encoding. */
export interface FhircastSubscriptionRequest {
  channelType: string;
  mode: string;
  topic: string;
  events: string[];
  /** The websocket the hub gave on subscribing; needed to unsubscribe. */
  endpoint?: string;
}

/** The event envelope POSTed to the hub (spec §3 'Hub event envelope'). */
export interface FhircastEventEnvelope {
  timestamp: string;
  id: string;
  event: {
    'hub.topic': string;
    'hub.event': FhircastEventName;
    context: FhircastContextEntry[];
    'context.versionId'?: string;
  };
}

/** What GET hub/{topic} answers: the topic's current context. */
export interface FhircastCurrentContext {
  'context.type'?: string;
  'context.versionId'?: string;
  context: FhircastContextEntry[];
}

/** Builds the envelope of one event: a fresh id and the current time. */
export function createFhircastEventEnvelope(
  topic: string,
  event: FhircastEventName,
  context: FhircastContextEntry[],
  versionId?: string,
): FhircastEventEnvelope {
  return {
    timestamp: new Date().toISOString(),
    id: randomUuid(),
    event: {
      'hub.topic': topic,
      'hub.event': event,
      context,
      ...(versionId === undefined ? {} : { 'context.versionId': versionId }),
    },
  };
}

/** The form fields of a subscription request, as the hub receives them. */
export function subscriptionRequestForm(request: FhircastSubscriptionRequest): URLSearchParams {
  const form = new URLSearchParams({
    'hub.channel.type': request.channelType,
    'hub.mode': request.mode,
    'hub.topic': request.topic,
    'hub.events': request.events.join(','),
  });
  if (request.endpoint !== undefined) form.set('hub.channel.endpoint', request.endpoint);
  return form;
}

/** Reads a subscription request from its form fields (the hub's side of subscriptionRequestForm). */
export function parseSubscriptionRequestForm(form: URLSearchParams): FhircastSubscriptionRequest {
  const events = form.get('hub.events');
  const endpoint = form.get('hub.channel.endpoint');
  return {
    channelType: form.get('hub.channel.type') ?? '',
    mode: form.get('hub.mode') ?? '',
    topic: form.get('hub.topic') ?? '',
    events: events ? events.split(',').map((event) => event.trim()) : [],
    ...(endpoint === null ? {} : { endpoint }),
  };
}

/**
 * A version 4 UUID. crypto.randomUUID exists only in secure contexts, and a clinic may serve the
 * app over plain http on its own network; getRandomValues works everywhere.
 */
function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
