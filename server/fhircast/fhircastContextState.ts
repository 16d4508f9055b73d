import { randomUUID } from 'node:crypto';
import {
  canonicalFhircastEventName,
  validateContext,
  validateTopic,
  type FhircastCurrentContext,
  type FhircastEventEnvelope,
  type FhircastEventName,
} from '../../data-provider/fhircast';

/** A published event after the hub's checks: the envelope as it will be delivered. */
export interface CheckedEvent {
  envelope: FhircastEventEnvelope;
  eventName: FhircastEventName;
}

/**
 * Checks a POSTed event envelope for `topic` with the rules the client uses (spec §5 'Hub context
 * entries'); answers the envelope to deliver (id and timestamp filled in when missing, the event
 * name spelled as the catalogue does) or the problem, with the path of the field at fault.
 */
export function checkEventEnvelope(
  topic: string,
  body: unknown,
): { event: CheckedEvent } | { problem: string; path: string } {
  const topicProblem = validateTopic(topic);
  if (topicProblem) return { problem: topicProblem, path: 'hub.topic' };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { problem: 'The body must be a FHIRcast event envelope (a JSON object with "event")', path: '' };
  }
  const { id, timestamp, event } = body as { id?: unknown; timestamp?: unknown; event?: unknown };
  if (typeof event !== 'object' || event === null) {
    return { problem: 'The envelope needs an "event" object', path: 'event' };
  }
  if (id !== undefined && (typeof id !== 'string' || id === '')) {
    return { problem: 'The envelope id must be a non-empty string', path: 'id' };
  }
  if (timestamp !== undefined && (typeof timestamp !== 'string' || Number.isNaN(Date.parse(timestamp)))) {
    return { problem: 'The envelope timestamp must be a date and time', path: 'timestamp' };
  }
  const fields = event as Record<string, unknown>;
  const eventTopic = fields['hub.topic'];
  if (eventTopic !== undefined && eventTopic !== topic) {
    return {
      problem: `event.hub.topic "${String(eventTopic)}" is not the topic of the URL ("${topic}")`,
      path: 'event.hub.topic',
    };
  }
  const eventName = canonicalFhircastEventName(fields['hub.event']);
  if (!eventName) return { problem: `Unknown FHIRcast event: ${String(fields['hub.event'])}`, path: 'event.hub.event' };
  const contextProblem = validateContext(eventName, fields.context, fields['context.versionId']);
  if (contextProblem) {
    const path = contextProblem.includes('versionId') ? 'event.context.versionId' : 'event.context';
    return { problem: contextProblem, path };
  }
  const bundleProblem = bundleProblemOf(fields.context as unknown[]);
  if (bundleProblem) return bundleProblem;
  const envelope: FhircastEventEnvelope = {
    timestamp: typeof timestamp === 'string' ? timestamp : new Date().toISOString(),
    id: typeof id === 'string' ? id : randomUUID(),
    event: {
      ...(fields as FhircastEventEnvelope['event']),
      'hub.topic': topic,
      'hub.event': eventName,
    },
  };
  return { event: { envelope, eventName } };
}

/**
 * A Bundle in a context (a DiagnosticReport-update's changes) is walked by the hub, which reads
 * what each subscriber may see of its resources (fhircastAccess.ts): its `entry` must be a list of
 * objects, each `resource` an object with a `resourceType`. Anything else is a 400 naming it.
 */
function bundleProblemOf(context: readonly unknown[]): { problem: string; path: string } | undefined {
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  for (const [index, item] of context.entries()) {
    const resource = (item as { resource: { resourceType: string; entry?: unknown } }).resource;
    if (resource.resourceType !== 'Bundle' || resource.entry === undefined) continue;
    const path = `event.context[${index}].resource.entry`;
    if (!Array.isArray(resource.entry)) return { problem: 'Bundle.entry must be an array', path };
    for (const [position, entry] of resource.entry.entries()) {
      const entryPath = `${path}[${position}]`;
      if (!isObject(entry)) return { problem: 'A Bundle entry must be an object', path: entryPath };
      const content = (entry as { resource?: unknown }).resource;
      if (
        content !== undefined &&
        (!isObject(content) || typeof (content as { resourceType?: unknown }).resourceType !== 'string')
      ) {
        return {
          problem: 'A Bundle entry resource must be an object with a resourceType',
          path: `${entryPath}.resource`,
        };
      }
    }
  }
  return undefined;
}

export const emptyContext: FhircastCurrentContext = { context: [] };

/**
 * The topic's context after an event: `*-open` makes its context current (with a new version),
 * `*-close` of the open anchor clears it, `DiagnosticReport-update` must name the current version and
 * gets a new one; other events (select, syncerror, heartbeat, logout) leave it as it is. Answers a
 * problem when the event does not fit the current context.
 */
export function nextContext(
  current: FhircastCurrentContext,
  { envelope, eventName }: CheckedEvent,
): { context: FhircastCurrentContext } | { problem: string; path: string } {
  const [anchorType, action] = eventName.split('-');
  const event = envelope.event;
  if (action === 'open') {
    return { context: { 'context.type': anchorType, 'context.versionId': randomUUID(), context: event.context } };
  }
  if (action === 'close') {
    // Closing something that is not open changes nothing (another application may have closed it first).
    return { context: current['context.type'] === anchorType ? emptyContext : current };
  }
  if (action === 'update') {
    if (current['context.type'] !== anchorType) {
      return { problem: `No ${anchorType} is open on this topic: open it before updating it`, path: 'event.hub.event' };
    }
    if (event['context.versionId'] !== current['context.versionId']) {
      return {
        problem: `event.context.versionId "${event['context.versionId']}" is not the current version of the context ("${current['context.versionId']}")`,
        path: 'event.context.versionId',
      };
    }
    return { context: { ...current, 'context.versionId': randomUUID() } };
  }
  return { context: current };
}
