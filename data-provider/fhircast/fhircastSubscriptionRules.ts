import { canonicalFhircastEventName } from './fhircastEvents';
import type { FhircastSubscriptionRequest } from './fhircastMessages';

/*
 * Hub subscription rules (spec §5 'Client rules'). Each check answers undefined when the value is
 * fine, else a message naming what is wrong; the client throws it, the hub answers it as a 400.
 */

export const FHIRCAST_CHANNEL_TYPE = 'websocket';
export const FHIRCAST_MODES = ['subscribe', 'unsubscribe'] as const;

export function validateTopic(topic: unknown): string | undefined {
  if (typeof topic !== 'string' || topic.trim() === '') return 'FHIRcast topic must be a non-empty string';
  return undefined;
}

export function validateEvents(events: unknown): string | undefined {
  if (!Array.isArray(events) || events.length === 0) return 'FHIRcast events must be a non-empty array of event names';
  const unknown = events.filter((event) => !canonicalFhircastEventName(event));
  if (unknown.length > 0) return `Unknown FHIRcast event: ${unknown.map((event) => String(event)).join(', ')}`;
  return undefined;
}

export function validateChannelType(channelType: unknown): string | undefined {
  if (channelType !== FHIRCAST_CHANNEL_TYPE) {
    return `Unsupported FHIRcast channel type '${String(channelType)}': only websocket is supported`;
  }
  return undefined;
}

export function validateMode(mode: unknown): string | undefined {
  if (!FHIRCAST_MODES.includes(mode as (typeof FHIRCAST_MODES)[number])) {
    return `Invalid hub.mode '${String(mode)}': must be subscribe or unsubscribe`;
  }
  return undefined;
}

/** A subscription endpoint is the hub's websocket: ws:// or wss://. */
export function validateEndpoint(endpoint: unknown): string | undefined {
  if (typeof endpoint !== 'string' || !/^wss?:\/\/\S+$/i.test(endpoint)) {
    return `Invalid FHIRcast endpoint '${String(endpoint)}': must be a ws:// or wss:// URL`;
  }
  return undefined;
}

/**
 * The whole request: every field valid; an unsubscribe must name the endpoint it ends, a
 * subscribe may leave it to the hub.
 */
export function validateSubscriptionRequest(request: Partial<FhircastSubscriptionRequest>): string | undefined {
  return (
    validateChannelType(request.channelType) ??
    validateMode(request.mode) ??
    validateTopic(request.topic) ??
    validateEvents(request.events) ??
    (request.mode === 'unsubscribe' || request.endpoint !== undefined ? validateEndpoint(request.endpoint) : undefined)
  );
}
